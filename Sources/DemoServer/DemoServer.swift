// Placeholder: the loopback HTTP server and demo feed land here.
public enum DemoServerPlaceholder {}
