/// SHA-512 (FIPS 180-4 §6.4), the hash inside Ed25519 (RFC 8032 §5.1).
///
/// Plain Swift rounds: Ed25519 hashes a few short inputs per signature, so no CPU instructions.
public struct SHA512: Sendable {
    /// The digest size in bytes.
    public static let digestSize = 64

    /// The 80 round constants: the first 64 bits of the fractional parts of the cube roots of the
    /// first 80 primes (FIPS 180-4 §4.2.3).
    static let k: [UInt64] = [
        0x428a_2f98_d728_ae22, 0x7137_4491_23ef_65cd, 0xb5c0_fbcf_ec4d_3b2f, 0xe9b5_dba5_8189_dbbc,
        0x3956_c25b_f348_b538, 0x59f1_11f1_b605_d019, 0x923f_82a4_af19_4f9b, 0xab1c_5ed5_da6d_8118,
        0xd807_aa98_a303_0242, 0x1283_5b01_4570_6fbe, 0x2431_85be_4ee4_b28c, 0x550c_7dc3_d5ff_b4e2,
        0x72be_5d74_f27b_896f, 0x80de_b1fe_3b16_96b1, 0x9bdc_06a7_25c7_1235, 0xc19b_f174_cf69_2694,
        0xe49b_69c1_9ef1_4ad2, 0xefbe_4786_384f_25e3, 0x0fc1_9dc6_8b8c_d5b5, 0x240c_a1cc_77ac_9c65,
        0x2de9_2c6f_592b_0275, 0x4a74_84aa_6ea6_e483, 0x5cb0_a9dc_bd41_fbd4, 0x76f9_88da_8311_53b5,
        0x983e_5152_ee66_dfab, 0xa831_c66d_2db4_3210, 0xb003_27c8_98fb_213f, 0xbf59_7fc7_beef_0ee4,
        0xc6e0_0bf3_3da8_8fc2, 0xd5a7_9147_930a_a725, 0x06ca_6351_e003_826f, 0x1429_2967_0a0e_6e70,
        0x27b7_0a85_46d2_2ffc, 0x2e1b_2138_5c26_c926, 0x4d2c_6dfc_5ac4_2aed, 0x5338_0d13_9d95_b3df,
        0x650a_7354_8baf_63de, 0x766a_0abb_3c77_b2a8, 0x81c2_c92e_47ed_aee6, 0x9272_2c85_1482_353b,
        0xa2bf_e8a1_4cf1_0364, 0xa81a_664b_bc42_3001, 0xc24b_8b70_d0f8_9791, 0xc76c_51a3_0654_be30,
        0xd192_e819_d6ef_5218, 0xd699_0624_5565_a910, 0xf40e_3585_5771_202a, 0x106a_a070_32bb_d1b8,
        0x19a4_c116_b8d2_d0c8, 0x1e37_6c08_5141_ab53, 0x2748_774c_df8e_eb99, 0x34b0_bcb5_e19b_48a8,
        0x391c_0cb3_c5c9_5a63, 0x4ed8_aa4a_e341_8acb, 0x5b9c_ca4f_7763_e373, 0x682e_6ff3_d6b2_b8a3,
        0x748f_82ee_5def_b2fc, 0x78a5_636f_4317_2f60, 0x84c8_7814_a1f0_ab72, 0x8cc7_0208_1a64_39ec,
        0x90be_fffa_2363_1e28, 0xa450_6ceb_de82_bde9, 0xbef9_a3f7_b2c6_7915, 0xc671_78f2_e372_532b,
        0xca27_3ece_ea26_619c, 0xd186_b8c7_21c0_c207, 0xeada_7dd6_cde0_eb1e, 0xf57d_4f7f_ee6e_d178,
        0x06f0_67aa_7217_6fba, 0x0a63_7dc5_a2c8_98a6, 0x113f_9804_bef9_0dae, 0x1b71_0b35_131c_471b,
        0x28db_77f5_2304_7d84, 0x32ca_ab7b_40c7_2493, 0x3c9e_be0a_15c9_bebc, 0x431d_67c4_9c10_0d4c,
        0x4cc5_d4be_cb3e_42b6, 0x597f_299c_fc65_7e2a, 0x5fcb_6fab_3ad6_faec, 0x6c44_198c_4a47_5817,
    ]

    /// The initial hash value: the first 64 bits of the fractional parts of the square roots of
    /// the first 8 primes (FIPS 180-4 §5.3.5).
    static let initial: [UInt64] = [0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1, 0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179]

    private var h: [UInt64] = SHA512.initial
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// A fresh hasher.
    public init() { buffer.reserveCapacity(128) }

    /// Feeds bytes.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        for byte in bytes {
            buffer.append(byte)
            if buffer.count == 128 {
                compress(buffer[...])
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads and returns the 64-byte digest (the hasher is spent afterwards).
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = buffer
        tail.append(0x80)
        while tail.count % 128 != 112 { tail.append(0) }
        // The length is a 128-bit big-endian field; its high 64 bits are zero for any input here.
        tail.append(contentsOf: [UInt8](repeating: 0, count: 8))
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var offset = 0
        while offset < tail.count {
            compress(tail[offset..<(offset + 128)])
            offset += 128
        }
        buffer.removeAll()
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for word in h {
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: word >> (UInt64(i) * 8))) }
        }
        return out
    }

    /// The 64-byte digest of `bytes` in one call.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(bytes)
        return hasher.finalize()
    }

    @inline(__always) private static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &>> n) | (x &<< (64 &- n)) }

    /// Compresses one 128-byte block (FIPS 180-4 §6.4.2).
    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = [UInt64](repeating: 0, count: 80)
        var index = block.startIndex
        for t in 0..<16 {
            var word: UInt64 = 0
            for _ in 0..<8 {
                word = word << 8 | UInt64(block[index])
                index += 1
            }
            w[t] = word
        }
        for t in 16..<80 {
            let s0 = Self.rotr(w[t - 15], 1) ^ Self.rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)
            let s1 = Self.rotr(w[t - 2], 19) ^ Self.rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for t in 0..<80 {
            let sigma1 = Self.rotr(e, 14) ^ Self.rotr(e, 18) ^ Self.rotr(e, 41)
            let choose = (e & f) ^ (~e & g)
            let t1 = hh &+ sigma1 &+ choose &+ Self.k[t] &+ w[t]
            let sigma0 = Self.rotr(a, 28) ^ Self.rotr(a, 34) ^ Self.rotr(a, 39)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sigma0 &+ majority
            hh = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
        h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }
}
