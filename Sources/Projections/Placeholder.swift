import EventStore
public enum ProjectionsPlaceholder {}
