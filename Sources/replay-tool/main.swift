print("replay-tool")
