package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"unsafe"

	"github.com/viterin/vek/vek32"
)

// vectors.f32 holds one float32 row per memory, addressed by the row
// number the manifest records for each file:
//
//	"CVEC" | version u32 | dims u32 | rows u32 | rows × dims float32 (little endian)
//
// Readers map it read-only; a writer, holding the generation's exclusive
// lock, overwrites rows in place and appends new ones. Rows of deleted
// memories are zeroed and reused.
const (
	vecMagic   = "CVEC"
	vecVersion = 1
	vecHeader  = 16
)

type vectorFile struct {
	dims, rows int
	mm         []byte
	data       []float32
}

// openVectors maps path for reading. A missing file is an empty store.
func openVectors(path string, dims int) (*vectorFile, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &vectorFile{dims: dims}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() < vecHeader {
		return nil, fmt.Errorf("%w: %s is truncated", ErrCorrupt, path)
	}
	mm, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	vf := &vectorFile{mm: mm}
	if string(mm[:4]) != vecMagic || binary.LittleEndian.Uint32(mm[4:]) != vecVersion {
		vf.close()
		return nil, fmt.Errorf("%w: %s has a bad header", ErrCorrupt, path)
	}
	vf.dims = int(binary.LittleEndian.Uint32(mm[8:]))
	vf.rows = int(binary.LittleEndian.Uint32(mm[12:]))
	if vf.dims != dims && dims != 0 {
		vf.close()
		return nil, fmt.Errorf("%w: %s has %d dimensions, expected %d", ErrCorrupt, path, vf.dims, dims)
	}
	if int64(vecHeader+vf.rows*vf.dims*4) > fi.Size() {
		vf.close()
		return nil, fmt.Errorf("%w: %s is shorter than its %d rows", ErrCorrupt, path, vf.rows)
	}
	if vf.rows > 0 {
		vf.data = unsafe.Slice((*float32)(unsafe.Pointer(&mm[vecHeader])), vf.rows*vf.dims)
	}
	return vf, nil
}

func (v *vectorFile) row(i int) []float32 {
	if i < 0 || i >= v.rows {
		return nil
	}
	return v.data[i*v.dims : (i+1)*v.dims]
}

// dot scores row i against q; rows out of range score zero.
func (v *vectorFile) dot(q []float32, i int) float32 {
	r := v.row(i)
	if r == nil || len(q) != len(r) {
		return 0
	}
	return vek32.Dot(q, r)
}

// releaseChunk is how many bytes of vectors are scored before their pages
// are released: 1 MiB, about 680 rows of 384 dimensions.
const releaseChunk = 1 << 20

// scoreAll is the dot product of q with every row, in row order, read
// once front to back. Pages behind the scan are released as it goes, so a
// search over 10k rows of 384 dimensions keeps about 1 MiB of the file
// resident instead of all 15 MB.
func (v *vectorFile) scoreAll(q []float32) []float32 {
	out := make([]float32, v.rows)
	if len(q) != v.dims {
		return out
	}
	page := os.Getpagesize()
	released := 0 // bytes of mm released so far, a multiple of page
	for i := range out {
		out[i] = vek32.Dot(q, v.data[i*v.dims:(i+1)*v.dims])
		if end := vecHeader + (i+1)*v.dims*4; end-released >= releaseChunk || i == len(out)-1 {
			if upto := end / page * page; upto > released {
				releasePages(v.mm[released:upto])
				released = upto
			}
		}
	}
	return out
}

func (v *vectorFile) close() {
	if v.mm != nil {
		_ = unmapFile(v.mm)
		v.mm, v.data = nil, nil
	}
}

// vectorWriter changes vectors.f32 in place.
type vectorWriter struct {
	f          *os.File
	dims, rows int
}

func openVectorWriter(path string, dims int) (*vectorWriter, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	w := &vectorWriter{f: f, dims: dims}
	var hdr [vecHeader]byte
	n, _ := f.ReadAt(hdr[:], 0) // short reads are judged by n below
	switch {
	case n == 0:
		// new file
	case n < vecHeader || string(hdr[:4]) != vecMagic:
		f.Close()
		return nil, fmt.Errorf("%w: %s has a bad header", ErrCorrupt, path)
	default:
		if d := int(binary.LittleEndian.Uint32(hdr[8:])); d != dims {
			f.Close()
			return nil, fmt.Errorf("%w: %s has %d dimensions, expected %d", ErrCorrupt, path, d, dims)
		}
		w.rows = int(binary.LittleEndian.Uint32(hdr[12:]))
	}
	return w, nil
}

func (w *vectorWriter) set(row int, v []float32) error {
	if len(v) != w.dims {
		return fmt.Errorf("vector has %d dimensions, the store %d", len(v), w.dims)
	}
	buf := make([]byte, w.dims*4)
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[i*4:], math.Float32bits(x))
	}
	if _, err := w.f.WriteAt(buf, int64(vecHeader+row*w.dims*4)); err != nil {
		return err
	}
	if row >= w.rows {
		w.rows = row + 1
	}
	return nil
}

func (w *vectorWriter) clear(row int) error {
	if row < 0 || row >= w.rows {
		return nil
	}
	_, err := w.f.WriteAt(make([]byte, w.dims*4), int64(vecHeader+row*w.dims*4))
	return err
}

// close writes the header, trims unused space and syncs.
func (w *vectorWriter) close() error {
	var hdr [vecHeader]byte
	copy(hdr[:], vecMagic)
	binary.LittleEndian.PutUint32(hdr[4:], vecVersion)
	binary.LittleEndian.PutUint32(hdr[8:], uint32(w.dims))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(w.rows))
	if _, err := w.f.WriteAt(hdr[:], 0); err != nil {
		w.f.Close()
		return err
	}
	if err := w.f.Truncate(int64(vecHeader + w.rows*w.dims*4)); err != nil {
		w.f.Close()
		return err
	}
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		return err
	}
	return w.f.Close()
}
