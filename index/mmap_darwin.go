package index

// mapPopulate is Linux only; macOS faults pages in on first touch.
const mapPopulate = 0
