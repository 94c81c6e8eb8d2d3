package index

import "golang.org/x/sys/unix"

// mapPopulate faults the vectors in with the map: a search reads them all.
const mapPopulate = unix.MAP_POPULATE
