package store

// The archive is append-only; its format is memfile's.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// writeArchive appends items to the archive and syncs it. A cut append
// leaves a fragment the reader skips; bimri.md still holds those items.
func (s *Store) writeArchive(items []memfile.Removal) error {
	if len(items) == 0 {
		return nil
	}
	path, err := s.sidePath(s.names.Archive)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, s.sideMode())
	if err != nil {
		return fmt.Errorf("open %s: %w", s.names.Archive, err)
	}
	defer f.Close()
	buf := memfile.RenderArchived(items, cmp.Or(s.today, s.now()))
	info, err := f.Stat()
	if err == nil && info.Size() == 0 {
		buf = append([]byte(memfile.ArchiveHeading), buf...)
	}
	// A write whose rename failed may have appended these records already.
	if err == nil && !endsWith(f, info.Size(), buf) {
		_, err = f.Write(buf)
	}
	if err == nil && !s.noSync {
		err = f.Sync()
		if info.Size() == 0 {
			safefile.SyncDir(filepath.Dir(path)) // its name too, before the file without its records
		}
	}
	if err != nil {
		return fmt.Errorf("append to %s: %w", s.names.Archive, err)
	}
	return nil
}

// archiveRollover is the size past which the archive is rolled over, so
// that after an append (at most a memory file) readers still take it.
var archiveRollover int64 = memfile.MaxArchiveSize - memfile.MaxMemorySize

// rollArchive keeps an archive past archiveRollover under a dated name
// (bimri-archive-20261201.md) and says so; "" when it is smaller.
func (s *Store) rollArchive() string {
	info, err := os.Lstat(s.Path(s.names.Archive))
	if err != nil || !info.Mode().IsRegular() || info.Size() <= archiveRollover {
		return ""
	}
	path, err := s.sidePath(s.names.Archive)
	if err != nil {
		return ""
	}
	base := strings.TrimSuffix(s.names.Archive, ".md") + "-" + s.now().UTC().Format("20060102")
	for n := 1; n <= 100; n++ {
		name := base + ".md"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.md", base, n)
		}
		kept := filepath.Join(filepath.Dir(path), name)
		if _, err := os.Lstat(kept); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(path, kept); err != nil {
			break
		}
		if !s.noSync {
			safefile.SyncDir(filepath.Dir(path))
		}
		return fmt.Sprintf("%s reached %d MiB, more than recall reads; it is kept as %s, and a new %s is started (recall and revive search the new one)",
			s.names.Archive, info.Size()>>20, name, s.names.Archive)
	}
	return fmt.Sprintf("%s is %d MiB, more than recall reads, and could not be kept under another name: move it aside by hand (recall finds nothing in it until then)", s.names.Archive, info.Size()>>20)
}

// ReadArchive reads the archive; a missing archive is empty.
func (s *Store) ReadArchive() ([]memfile.ArchiveRecord, error) {
	path := s.Path(s.names.Archive)
	if err := s.notMemory(s.names.Archive, path); err != nil {
		return nil, err
	}
	data, err := safefile.Read(path, memfile.MaxArchiveSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.names.Archive, err)
	}
	recs, _ := memfile.ParseArchive(data)
	return recs, nil
}

// ArchivedEntries are the archive's entries; none when it does not read.
func (s *Store) ArchivedEntries() []memfile.Entry {
	recs, _ := s.ReadArchive() // nil when it does not read
	var out []memfile.Entry
	for _, r := range recs {
		if r.Entry != nil {
			out = append(out, *r.Entry)
		}
	}
	return out
}

// endsWith says whether the file f, of size bytes, ends with tail.
func endsWith(f *os.File, size int64, tail []byte) bool {
	got := make([]byte, len(tail))
	_, err := f.ReadAt(got, size-int64(len(tail))) // fails before the file's start
	return len(tail) > 0 && err == nil && bytes.Equal(got, tail)
}

// A week's records are a few kilobytes at the archive's end: read in
// chunks doubling from recentChunk, each a fresh buffer.
const (
	recentChunk = 16 << 10
	recentMost  = 1 << 20
)

// RecentArchive reads the entries archived on or after since from the
// archive's end, for the week's digest; none when it does not read.
func (s *Store) RecentArchive(since time.Time) []memfile.ArchiveRecord {
	path := s.Path(s.names.Archive)
	if since.IsZero() || s.notMemory(s.names.Archive, path) != nil {
		return nil
	}
	f, info, err := safefile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	size := info.Size()
	day := since.Format(time.DateOnly)
	for chunk := int64(recentChunk); ; chunk *= 2 {
		n := min(chunk, size, recentMost)
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
			return nil
		}
		from, whole := archivedSince(buf, day)
		if whole || n == size || n == recentMost {
			recs, _ := memfile.ParseArchive(buf[from:])
			return slices.DeleteFunc(recs, func(r memfile.ArchiveRecord) bool { return r.Entry == nil || r.ArchivedOn.Before(since) })
		}
	}
}

// archivedSince is where, in an archive's end, the records archived on
// or after day start, and whether an earlier one was found before them.
func archivedSince(buf []byte, day string) (from int, whole bool) {
	from, end := len(buf), len(buf)
	for end > 0 {
		start := bytes.LastIndexByte(buf[:end-1], '\n') + 1
		line := buf[start:end]
		end = start
		_, date, ok := bytes.Cut(line, []byte("[ARCHIVED:"))
		if !ok || line[0] != '[' || len(date) < len(time.DateOnly) {
			continue
		}
		if string(date[:len(time.DateOnly)]) < day {
			return from, true
		}
		from = start
	}
	return from, false
}
