public enum SubscriptionDomainPlaceholder {}
