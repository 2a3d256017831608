// Package memfile reads, scores, maintains and writes bimri.md, the memory
// file of the BIMRI protocol (v2.0-cc), so that the rules the protocol asks
// a model to follow by hand are applied by code, the same way every time.
//
// # The file
//
// A memory file is the protocol's template: two header comments, the title,
// three tiers and an END marker.
//
//	<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-29 | Sessions: 7 | Token Est: ~640 -->
//	<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->
//
//	# BIMRI Memory
//
//	## Tier 1: Core Intelligence      (permanent; importance 4-5; never decays)
//	## Tier 2: Active Context         (decays; ordered by weight; pruned)
//	## Tier 3: Pattern Recognition    (patterns derived from Tier 2)
//
//	<!-- END BIMRI -->
//
// An entry (Tier 1 or 2) is the protocol's tag line and a one-line summary.
// The ID tag is this package's addition; it is last on the line:
//
//	[IMPORTANCE:3] [TIMESTAMP:2026-11-26] [TAGS:auth,testing] [WEIGHT:2.4] [ID:f6d4678b]
//	Added unit tests for the auth module, 94% coverage.
//
// The ID is the first eight hex digits of the SHA-256 of the date and the
// normalised text (lower case, spaces collapsed, trailing ".!;:" dropped;
// see EntryID), so two machines recording the same thing on the same day
// agree on it. A file without IDs gets them on its first write; a clash
// gets a distinct ID derived from the first. Once written, an ID never
// changes, even when a merge changes the entry's date.
//
// An entry may carry keywords after its tags, another addition of this
// package: words a later question would use that the text does not,
// which the agent gives when it records the entry. Recall searches them
// as it does tags; the view never shows them. They are normal as tags
// are, and merge as tags do (a duplicate, a consolidation, a merge):
//
//	[IMPORTANCE:4] [TIMESTAMP:2026-11-28] [TAGS:perf] [KEYWORDS:latency,schedule] [WEIGHT:4.0] [ID:bae58c56]
//
// An entry another coding agent than Claude Code recorded names it after
// its tags and keywords (the remember command knows Codex by the
// environment Codex gives its model's commands, the MCP server by the
// client's name). It is set once, when the entry is recorded; a merge
// keeps it; the view does not show it, as the model needs what was
// decided, not where:
//
//	[IMPORTANCE:4] [TIMESTAMP:2026-11-28] [TAGS:db] [AGENT:codex] [WEIGHT:4.0] [ID:5f0c2a9e]
//
// When the agent answers that a newer decision does not supersede older
// ones it looks like (File.HoldTogether), the newer entry names them
// after its ID, and the view no longer marks the older ones:
//
//	[IMPORTANCE:5] [TIMESTAMP:2026-11-28] [TAGS:decision,sessions] [WEIGHT:5.0] [ID:6dccd60c] [HOLDS_WITH:26b944e3]
//
// A pattern (Tier 3) has its own tag line; the sentence under it is the
// agent's, or an automatic one stating the facts:
//
//	[PATTERN:DEVELOPING] [OBSERVATIONS:3] [FIRST:2026-11-23] [LAST:2026-11-26] [TAGS:testing] [EVIDENCE:376c076f,576c6a78,f6d4678b] [ID:p62e0588]
//	Tag testing recurs: 3 entries from 2026-11-23 to 2026-11-26.
//
// EVIDENCE names the entries behind the pattern, oldest first.
//
// Entries and patterns that leave the file go to the append-only archive,
// bimri-archive.md (see RenderArchived and ParseArchive), as their tag line
// plus where they were, when they left and why:
//
//	[IMPORTANCE:1] [TIMESTAMP:2026-11-25] [TAGS:lint] [WEIGHT:0.5] [ID:0f3e2a11] [TIER:2] [ARCHIVED:2026-11-29] [REASON:weight 0.5 below threshold 1.5]
//	Ran lint pass, no issues.
//
// # Reading and writing
//
// Parse is lenient, because people and models write these files by hand,
// and models following the protocol write its format loosely. It reads,
// as the entry or pattern each means: the summary on the tag line or the
// next line; bold markers around the tag line or parts of it; list
// markers, task boxes, check marks and emoji before it; spaces inside the
// brackets ("[IMPORTANCE: 3]") and keys in any case; DATE for TIMESTAMP;
// dates as 2026/11/16, 2026-2-8, Nov 14, 2026, 14 Nov 2026 or with a
// time of day; '#' on tags, comma- or space-separated; "[WEIGHT:4.0
// (floor)]"; a ":" or dash before the summary; missing WEIGHT or TAGS; an
// entry with no date, which gets the header's Last Maintained date, or,
// when there is none, the date of the first pass; header counts such as
// "Sessions: 12 (next deep: 20)" or "Session: 12"; patterns written as
// [CONFIDENCE:LEVEL], "**DEVELOPING (3 obs)** ..." or "- EMERGING (2
// obs): ..." (such a pattern takes its tags from a [TAGS:] after the
// level, from #tags in its sentence, or else the one Tier 2 tag its
// sentence names, so that it meets the automatic pattern for that tag);
// CRLF line ends and a byte-order mark; and it recreates a missing header.
//
// An item's body is every line under its tag line up to a blank line, a
// comment, a heading or the next item: a continuation line belongs to the
// entry above it and moves with it. Each line read leniently is reported
// as a Warning with Converted set, saying how it was read; the first
// write puts it in the canonical form, so that report is the one-shot
// conversion's. Anything that is still not an entry or a pattern - a
// person's note, a tag line with a bad value - is kept word for word where
// it stood, as a Note, and reported as a Warning with its line number. An
// entry outside Tier 1 and 2 is moved to Tier 2, a pattern outside Tier 3
// to Tier 3, with a warning. Parse returns ErrUnreadable, and nothing
// else, only for bytes that are not a memory file: empty, binary (NUL
// bytes, mostly invalid UTF-8), cut off (a header but no END marker), or
// text with no BIMRI structure at all. The store reads two of those
// anyway, since a committed file is every clone's memory (store_read.go):
// one that is not UTF-8 is decoded as Windows-1252, and one without its
// END marker is read up to where it ends; each is set aside before the
// first write replaces it, and the user is told.
//
// Render writes the canonical form: the protocol's field order, sorted
// lower-case tags, one blank line between blocks. Render(Parse(x)) is
// stable under a second round trip, and a canonical file round-trips byte
// for byte; FuzzRoundTrip checks both. Text coming in (Add, and every
// line of a body Parse reads) goes through neutralize first, so it can
// never become structure: each line is made one line of valid UTF-8,
// "<!--" and "-->" are split, "[KEY:" look-alikes become "(KEY:" and a
// leading '#' is escaped. Text read from a file is never cut, whatever its
// length: the budget decides what stays, and the archive gets what leaves,
// whole; an entry or pattern over OversizedRunes (6,000) is set aside in
// the archive, whole, before the pass weighs anything, so one huge text
// cannot push the rest of its tier out. A new text over MaxTextRunes (600)
// is refused by Add with an error that says the limit.
//
// # The rules
//
// Freshness comes from the protocol's table, never a formula (freshness):
//
//	days since the entry   0-1   2-3   4-5   6-10   11-15   16-20   21+
//	multiplier             1.0   0.8   0.5   0.35   0.2     0.15    0.1
//
// Days are whole calendar days between the entry's date and the "today"
// the caller passes (DaysBetween; time of day and zone do not matter); a
// date in the future counts as 0. The weight is importance x multiplier,
// kept in hundredths so that 3 x 0.5 is exactly 1.5, and written with one
// decimal, half up (Weight.String). Importance 4 and 5 never weigh less
// than the floor, 4.0. Tier 1 entries never decay: their weight is their
// importance. Score explains any entry's weight.
//
// Maintain is the session-end pass, a pure function of the file, the day,
// the Config and the Options. It never changes its input. In order:
//
//  1. Set aside, whole, in the archive every entry and pattern whose text
//     is over OversizedRunes, and report it. Date the entries read without a date (and no header date to give
//     them) with today, and report it; then deep maintenance, when asked
//     (below).
//  2. Reweigh every entry for today.
//  3. Patterns: first, patterns for the same tags become one (a model's
//     hand-written one and the automatic one): the first keeps its ID, a
//     written sentence is kept, the count is the higher and the evidence
//     joined; this is reported. Then count entries into existing patterns and create one for
//     every tag that two or more distinct Tier 2 entries carry (plus the
//     archived entries a deep pass is given). Tier 1 entries and the tags
//     in Config.IgnoreTags ("auto", "checkpoint", "after-denial": they say where an entry
//     came from) do not count. The count is the number of distinct entries
//     behind the pattern; it runs before pruning, so an entry pruned in
//     this very pass still counts, and it never goes down. The level
//     follows the count: 1-2 EMERGING, 3-5 DEVELOPING, 6+ ESTABLISHED. An
//     agent's sentence is kept; the automatic one is rewritten as the
//     facts change.
//  4. Prune: Tier 2 entries below the threshold, 1.5, are archived;
//     exactly 1.5 stays.
//  5. Order Tier 2 by weight, highest first; ties newer first, then by ID.
//     Patterns are ordered strongest level first, then by count, then most
//     recently seen. Notes keep their places; only items move.
//  6. Budgets, below.
//  7. Header: Sessions goes up by one only with Options.CountSession (the
//     caller counts a session once, however many passes it runs); Last
//     Maintained becomes today; Token Est is recomputed.
//
// The Report lists what was archived and why (the caller appends those to
// the archive: nothing leaves the file otherwise), patterns created or
// moved to another level, the token estimate per tier, warnings, and
// whether deep maintenance is due (DeepDue: Sessions is a multiple of the
// cadence, or the file is over its total budget).
//
// EVIDENCE keeps at most maxEvidence (12) IDs, the newest, so an
// established pattern does not grow Tier 3 without end; the count goes on
// past it. Once the list is full, a regular pass counts only entries dated
// after the pattern's LAST, since an older one may have been counted and
// trimmed already; a deep pass recounts exactly over Tier 2 and the
// archive, and never below the IDs the evidence already names.
//
// Budgets are in estimated tokens. The protocol admits the count is an
// estimate; this one is: every line costs ceil(code points / 4) tokens,
// blank lines nothing, the header line itself is not counted (Estimate,
// estimateText). Four characters a token is the usual figure for English
// with Claude's tokenizer.
//
// When Tier 2 is over its budget, its entries are archived in this order
// (evictionOrder), until it fits:
//
//  1. Importance 1-3, then importance 4, then importance 5: a decision
//     recorded at 5 goes for budget only when nothing of lower importance
//     is left in Tier 2. Importance 4 is kept apart only within
//     lastingShare (75%) of the budget, importance 5 counted first; past
//     it, the importance-4 entries a newer one looks like it supersedes
//     (the view's "possibly superseded" mark) go with importance 1-3
//     first, then those that score least, in their order: a busy day of
//     routine work does not push out months of lasting decisions, nor old
//     importance-4 work yesterday's. An entry archived with the mark keeps
//     it in its archive reason ("...; possibly superseded by ID"), so
//     recall says so too.
//  2. Within each group, the lower unfloored score first: importance x
//     freshness, the floor not applied. The floor keeps an importance 4 or
//     5 entry above the threshold forever; it does not make a months-old
//     entry weigh as much as today's work when room must be made.
//  3. Ties: the older first, then by ID.
//
// So among entries of equal importance the older goes first, and an entry
// is never archived for budget on the day it was recorded while an older
// entry of the same or lower importance remains: freshness is 1.0 on the
// day an entry is recorded and never rises with age. The threshold and the
// floor decide what stays by weight (step 4) exactly as the protocol
// says; this order only decides who makes room. When Tier
// 3 is over, its weakest EMERGING patterns go (fewest observations, then
// least recently seen); DEVELOPING and ESTABLISHED ones are only reported.
// When the whole file is over its total, Tier 2 entries and then EMERGING
// patterns go. Tier 1 is never pruned automatically, only reported, and
// notes are never archived: a person wrote them.
//
// Deep maintenance (Options.Deep; due every DeepEvery sessions) also merges
// exact duplicates - entries whose normalised text is the same - into one
// with the higher importance, the newer date and the union of the tags (a
// Tier 1 copy wins over a Tier 2 one); the others are archived as "merged
// into ID" and pattern evidence is renamed to the survivor. It drops tags
// that link an entry to nothing (no other entry or pattern uses them, and
// the entry is at least 21 days old), recounts patterns over the archive,
// and lists what needs the agent's judgment: Tier 1 entries to review,
// oldest first, and groups of near-duplicate entries (word-set Jaccard
// similarity of 0.6 or more, looked for among the first 400 entries: Tier 1,
// then Tier 2 by weight).
//
// # Consolidation, promotion and patterns: the agent's judgment
//
// The protocol asks to compress and merge when the file is over budget.
// Which entries tell one story, and how to say it in a line, is a judgment
// the program cannot make; the agent makes it and these functions apply it
// exactly:
//
//   - File.Consolidate replaces two or more entries with one summary the
//     agent wrote: the highest importance of them, the union of their
//     tags, the newest date, in Tier 1 if any of them was there. The
//     originals go to the archive with the reason "consolidated into ID",
//     and patterns that named them name the summary.
//   - File.Promote moves a Tier 2 entry of importance 4 or 5 to Tier 1,
//     where it never decays: a decision that has lasted.
//   - File.WritePattern gives the pattern with exactly the given tags the
//     agent's sentence ("The user asks for a regression test with every bug
//     fix"), or creates it; the pass counts it like any other, and a
//     sentence someone wrote is never replaced. Tier 3's budget archives
//     automatic EMERGING patterns before ones with a sentence.
//
// Advise says what to ask. Once Tier 2 passes adviseAt (90%) of its
// budget: the oldest related entries (those sharing the most common tag of
// the entry the budget would take next, of its kind - importance 1-4, or
// 5, so a summary never lifts routine work to a decision - oldest first,
// at most six), and the oldest importance-5 Tier 2 decision at least a
// week old that Tier 1 has room for, in its budget and in its part of the
// view (below). Once what lasts - Tier 1 and the decisions, measured as
// the view writes them (Lasting) - passes 90% of its room in the view
// (LastingRoom: LastingShare, 50%, of the context limit), or Tier 1 alone
// passes its part (Tier1Share, 25%): the oldest related lasting entries,
// for one compact summary - the oldest Tier 1 entry or decision (Tier 2
// importance 5, older than the latest work) that shares a tag with another
// of its tier, then the others of that tier and tag, oldest first, at most
// six, while their texts together stay within MaxTextRunes, so the summary
// can keep each decision in a few words (an entry already that long is a
// full summary and is left alone). The summary of decisions is itself
// importance 5, carries their tags, and the archive says of each original
// "consolidated into ID", so a decision can always be traced to the line
// that holds it. No entry is named in two requests. At any size: the
// automatic patterns of level DEVELOPING or above that still have no
// sentence. The hooks ask the agent once (consolidation and promotion once
// a session, each pattern once), with the exact command.
//
// # The context view
//
// ContextView renders what goes into the model's context at session start,
// within View.Limit characters counted as Claude Code counts them, in
// UTF-16 code units (Length). After the header line come its groups, in
// order of priority, which is also the order they are written in:
//
//  1. the global memory, when there is one;
//  2. Tier 1 (notes included);
//  3. the decisions: Tier 2 entries of importance 5;
//  4. the key work: Tier 2 entries of importance 4, older than the latest
//     work;
//  5. the latest work: the other Tier 2 entries of the last two days on
//     which any were recorded (so after a weekend, Friday's and
//     Thursday's), when those are recent (latestDays);
//  6. the last seven days before those, a line a day: how many entries
//     the day has, its commonest tags and its most important entries in
//     a few words, counting the entries that have left the file since
//     (View.Archived, the archive's last records);
//  7. patterns with a sentence, established first, and the automatic ones
//     on one compact line ("recurring topics (tag, entries): testing 57,
//     auth 12");
//  8. lines of Tier 2 and 3 that are not entries, marked unread;
//  9. the rest of Tier 2.
//
// Tier 2's groups are each in the order the budget keeps them (importance
// x freshness, as of the last pass), so what the view leaves out for room
// is what the budget would take first. In every group, an entry a newer
// one looks like it supersedes (marked "possibly superseded by") comes
// after those that hold now. One line at the end says how many
// items were left out, that the full file is bimri.md, that what left it
// is in the archive, and the exact command that searches both
// (View.Search).
//
// Each group has a share of the room (groupRooms): a floor it is
// guaranteed when it has that much to show, and a cap. The room is given
// in three rounds, each in order of priority: every group its floor,
// then up to its cap, then what is left up to what it needs (patterns
// and unread lines keep their caps); the room a group cannot use goes on
// to the next that can. The global memory is guaranteed a third of the
// view and takes what the workspace leaves. So a busy day fills the
// latest work's share, not the view, and what lasts is shown whatever
// else the file holds. A lasting group (Tier 1, the decisions, the key
// work) or the latest work that does not fit whole shows every entry it
// can in a compact line (date, importance, the start of the text, ID),
// then makes the first of them whole as room allows; a lasting group
// names by ID the entries it has no room for even so. Nothing is ever cut
// mid-line, a heading never appears without its first line, and the view
// never exceeds the limit, whatever the file holds. The default limit is
// 10,000, Claude Code's measured cap.
//
// ViewLayout also says which entries and patterns the view shows whole:
// the rest, Tier 1 included, are recall's to bring back. With View.Sure
// the groups get their room as for a view of Sure characters and what
// the Limit adds goes to them in order of priority, so the larger view
// shows whole everything the view of Sure does: SessionStart lays its
// view out in the room its messages leave, and recall counts as shown
// only what the view of the room it always has shows.
//
// # Configuration
//
// Two profiles (Profile): "claude-code", the default (budgets 1,500 /
// 3,000 / 1,500 tokens, total 6,000, deep maintenance every 10th session),
// and "cowork" (3,000 / 8,000 / 3,500, total 15,000, every 15th). Both use
// threshold 1.5, floor 4.0 and a context limit of 10,000. ParseConfig reads
// a config object whose "profile" picks the defaults and whose other fields
// (tier1_budget, tier2_budget, tier3_budget, total_budget, deep_every,
// threshold, floor, context_limit, ignore_tags) override them; an invalid
// value is an error that names the field and shows the value. The file
// itself, and its unknown fields, are internal/config's.
//
// # Purity
//
// Everything in this package is a pure function of its arguments - no
// clock, no filesystem, no randomness, no map-order dependence - except
// the store (store*.go), which alone reads and writes files under a
// lock. "Today" is
// always passed in, so every rule can be tested on a fixed day, and the
// same inputs always give the same bytes.
//
// A pass over its own output on the same day, under the same config,
// changes nothing (TestPassIdempotent, FuzzPassIdempotent): a hook that
// runs it again writes nothing.
//
// # Cost
//
// A hook is a short process, so at 10,000 entries the memory it touches
// costs as much as the work: every new page is a fault. Hence a
// transaction's pass runs on the transaction's own File (Maintain itself
// copies). A shortcut for what a hook does for every entry stays only
// where removing it measured more than 5% of a hook's time on the files
// users have (docs/performance.md), and is tested against the general
// path. Counting characters, finding a date's day and judging a
// summary plain are the plain loops and the standard library.
//
// Render writes into one buffer sized for the file from lengths alone;
// the Store does not hold the new file whole at all: RenderTo hands it
// over in 64 KB pieces, compared with the bytes read as they come and
// written to the temporary file from the first that differs
// (newfile_internal_test.go checks it against Render). The view heaps
// Tier 2 and takes off only the lines it could show, the rest counted,
// not sorted; the pass reports the count its budget check kept, not a
// second Estimate, and SessionStart advises with that count
// (AdviseEstimated). Patterns sort only the entries they read (of a full
// evidence list, those dated after its LAST), not all of Tier 2
// (patterns_internal_test.go keeps the whole-pool sort as the
// definition). The Go benchmarks (bench_test.go) keep per-entry time and
// allocations flat from 100 to 10,000 entries.
package memfile
