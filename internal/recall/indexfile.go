package recall

// This is the only file in recall that touches the filesystem: it reads
// the archive and reads and writes the index beside the session state.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// IndexName is the index's file name in the state folder (.claude/bimri).
const IndexName = "recall-index.bin"

// Load returns the index of the archive at archivePath, kept at indexPath.
// The index is used when it was built from an archive of the same size
// and modification time; otherwise, or when it is missing or damaged, it
// is rebuilt from the archive and replaced atomically. The archive stays
// the only source of truth: deleting the index only costs one rebuild. A
// missing archive gives an empty index. A failure to write the index is
// not an error (the next prompt tries again), nor is a folder that does
// not exist yet: then nothing is written. Close the index when done.
func Load(archivePath, indexPath string) (*Index, error) {
	info, err := os.Stat(archivePath)
	if errors.Is(err, fs.ErrNotExist) {
		return decode(encode(nil, indexKey{}))
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New(filepath.Base(archivePath) + " is not a regular file")
	}
	key := indexKey{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
	if x, err := openIndex(indexPath, key); err == nil {
		return x, nil
	}
	data, err := safefile.Read(archivePath, memfile.MaxArchiveSize)
	if err != nil {
		return nil, err
	}
	recs, _ := memfile.ParseArchive(data)
	items := make([]Item, 0, len(recs))
	for _, r := range recs {
		if it, ok := fromArchive(r); ok {
			items = append(items, it)
		}
	}
	out := encode(items, key)
	writeIndex(indexPath, out)
	return decode(out)
}

// openIndex maps the index at path, if it is for the archive key names
// and reads whole.
func openIndex(path string, key indexKey) (*Index, error) {
	f, info, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	// The index is a cache of the archive, about its size.
	if info.Size() > 2*memfile.MaxArchiveSize {
		return nil, errCorrupt
	}
	data, unmap, err := mapFile(f, int(info.Size()))
	if err != nil {
		return nil, err
	}
	var x *Index
	if err := guard(func() { x, err = decode(data) }); err != nil || x == nil || x.key != key {
		unmap()
		return nil, errCorrupt
	}
	x.unmap = unmap
	// Unmapped by Close, or else once the Index is collected: a hook
	// lives a few milliseconds and never collects, and its exit frees the
	// mapping for less than a munmap costs, which flushes every CPU's
	// TLB.
	x.release = runtime.AddCleanup(x, func(unmap func()) { unmap() }, unmap)
	// A part found damaged later goes with the file: the next prompt
	// rebuilds it. (Should another prompt have just replaced it, that
	// costs one rebuild more; the index is a cache.)
	x.onDamage = func() { _ = os.Remove(path) }
	return x, nil
}

// guard runs f, which reads a mapped index, and turns a fault there into
// errCorrupt. The file is only ever replaced by a rename, never cut in
// place, but if something else cuts it short while it is mapped, reading
// past its new end faults (SIGBUS): that is a damaged index, which costs
// the prompt its recall, never the session.
func guard(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = errCorrupt
		}
	}()
	f()
	return nil
}

// writeIndex replaces the index atomically, without fsync: it is a cache,
// and a torn or lost one fails its checksum and is rebuilt. The temporary
// name is the store's, so a store sweeps one a killed process left.
func writeIndex(path string, data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bimri-tmp-recall-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return
	}
	if err := tmp.Close(); err != nil {
		return
	}
	_ = os.Rename(tmp.Name(), path)
}
