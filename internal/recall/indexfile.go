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
	"slices"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/store/safefile"
)

// IndexName is the index's file name in the state folder (.claude/bimri).
const IndexName = "recall-index.bin"

// Ask is the one recall engine of the prompt hook, the MCP recall tool,
// search and browse: it answers q from f's entries and patterns, but for
// those hidden names (what the session saw whole; nil: none), and from
// s's archive, but for an archived item back in f.
func Ask(s *store.Store, f *memfile.File, q Query, hidden func(id string) bool) ([]Hit, error) {
	archive, err := Load(s.Path(s.Names().Archive), filepath.Join(s.StatePath(), IndexName))
	if err != nil {
		return nil, err
	}
	// Not closed: a hook exits in a moment, and a longer process releases
	// the mapping once the index is collected.
	entries, patterns := slices.Concat(f.Entries(1), f.Entries(2)), f.Patterns()
	inFile := make(map[string]bool, len(entries)+len(patterns))
	items := make([]Item, 0, len(entries)+len(patterns))
	keep := func(id string, it func() Item) {
		if inFile[id] = true; hidden == nil || !hidden(id) {
			items = append(items, it())
		}
	}
	for _, e := range entries {
		keep(e.ID, func() Item { return FromEntry(e) })
	}
	for _, p := range patterns {
		keep(p.ID, func() Item { return FromPattern(p) })
	}
	skip := q.Skip
	q.Skip = func(it Item) bool {
		return (!it.ArchivedOn.IsZero() && inFile[it.ID]) || (skip != nil && skip(it))
	}
	return Find(q, NewMemory(items), archive), nil
}

// Load returns the index of the archive at archivePath, kept at indexPath.
// The index is used when it was built from an archive of the same size
// and modification time; otherwise, or when it is missing or damaged, it
// is rebuilt from the archive and replaced atomically. The archive stays
// the only source of truth: deleting the index only costs one rebuild. A
// missing archive gives an empty index. A failure to write the index is
// not an error (the next prompt tries again), nor is a folder that does
// not exist yet: then nothing is written.
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
	x, err := openIndex(indexPath)
	if err == nil {
		if x.key.Size == key.Size && x.key.ModTime == key.ModTime {
			return x, nil
		}
		if grown, items, newEdge, ok := appended(archivePath, x.key, key.Size); ok {
			if grown <= maxTail {
				x.tail = NewMemory(items)
				return x, nil
			}
			// Grown by more than a tail: the index is rebuilt from its own
			// items (when each reads) and the new records, not the archive.
			all := make([]Item, x.docs, x.docs+len(items))
			for d := 0; d < x.docs && err == nil; d++ {
				all[d], err = x.item(d)
			}
			if err == nil {
				key.Edge = newEdge
				return build(append(all, items...), indexPath, key)
			}
		}
	}
	data, err := safefile.Read(archivePath, memfile.MaxArchiveSize)
	if err != nil {
		return nil, err
	}
	key.Size, key.Edge = int64(len(data)), edge(data)
	return build(archiveItems(data), indexPath, key)
}

// maxTail is how many bytes of records appended since the index was
// built a prompt parses beside it (a few hundred records, a few
// sessions' worth) before the index is rebuilt with them.
const maxTail = 64 << 10

// archiveItems are the items of an archive's bytes, cleaned (fromArchive).
func archiveItems(data []byte) []Item {
	recs, _ := memfile.ParseArchive(data)
	items := make([]Item, 0, len(recs))
	for _, r := range recs {
		if it, ok := fromArchive(r); ok {
			items = append(items, it)
		}
	}
	return items
}

// appended reads the records appended to the archive at path since it
// was as old says, now size bytes long: how many bytes, their items, and
// the Edge of the archive now; ok is false when it did not only grow (its bytes up to old.Size are
// not those old's Edge covers), or when it cannot be read.
func appended(path string, old indexKey, size int64) (grown int64, items []Item, newEdge uint32, ok bool) {
	if old.Size == 0 || size <= old.Size || size > memfile.MaxArchiveSize {
		return 0, nil, 0, false
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, 0, false
	}
	defer f.Close()
	from := max(0, old.Size-edgeLen)
	buf := make([]byte, size-from)
	if _, err := f.ReadAt(buf, from); err != nil || edge(buf[:old.Size-from]) != old.Edge {
		return 0, nil, 0, false
	}
	tail := buf[old.Size-from:]
	return int64(len(tail)), archiveItems(tail), edge(buf), true
}

// build encodes items as the index of the archive key names, writes it
// to indexPath and returns it.
func build(items []Item, indexPath string, key indexKey) (*Index, error) {
	out := encode(items, key)
	// Not synced: the index is a cache, and a torn or lost one fails its
	// checksum and is rebuilt. A store sweeps the temporary file a killed
	// process left.
	_ = safefile.WriteFile(indexPath, out, safefile.Options{NoSync: true})
	return decode(out)
}

// openIndex maps the index at path, if it reads whole; its key says
// which archive it is of.
func openIndex(path string) (*Index, error) {
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
	if err := guard(func() { x, err = decode(data) }); err != nil || x == nil {
		unmap()
		return nil, errCorrupt
	}
	// Unmapped once the Index is collected: a hook lives a few
	// milliseconds and never collects, and its exit frees the mapping for
	// less than a munmap costs, which flushes every CPU's TLB.
	x.mapped = true
	runtime.AddCleanup(x, func(unmap func()) { unmap() }, unmap)
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
