package memfile

// File names in a workspace.
const (
	MemoryName  = "bimri.md"
	BackupName  = "bimri-backup.md"
	ArchiveName = "bimri-archive.md"
)

// Caps on what is read, so a file gone wrong (or a link to /dev/zero)
// cannot fill memory: each is far above what the file reaches in use.
const (
	MaxMemorySize  = 16 << 20 // bimri.md, its backup and merge inputs
	MaxArchiveSize = 64 << 20 // append-only: decades of archived entries
)
