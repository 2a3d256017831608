// Package browse is `bimri-hook browse`: a terminal UI (Bubble Tea) to
// page through the memory and its archive, search it, see why an entry
// weighs what it does, and forget, revive, promote or supersede one after a
// confirmation, as the commands do. Tests drive model with key presses.
package browse

import (
	"fmt"
	"io"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/charmbracelet/x/ansi"
)

func Run(s Source, in io.Reader, out io.Writer) error {
	m, err := openModel(s)
	if err != nil {
		return err
	}
	_, err = tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out)).Run()
	return err
}

type mode int

const (
	browsing   mode = iota
	searching       // typing the search query
	writing         // typing the text of a superseding entry
	confirming      // y or n to an action
)

type model struct {
	src       Source
	lists     [4][]item // of each tab
	tab       int
	cursor    [4]int
	top       [4]int // first row shown of each list
	width     int
	height    int
	mode      mode
	query     string
	ranked    map[string]int // recall's place of each ID for the query rankedFor
	rankedFor string
	input     []rune                 // what is being typed: the query, or a new entry's text
	pending   func() (string, error) // the action waiting for y, after the question ask
	ask       string
	status    string
	failed    bool // status is an error
}

// openModel reads the memory and starts on Tier 2 (tab 1), where most
// entries live.
func openModel(s Source) (*model, error) {
	m := &model{src: s, tab: 1, width: 100, height: 30}
	if err := m.reload(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *model) reload() error {
	lists, err := load(m.src)
	if err != nil {
		return err
	}
	m.lists = lists
	for t := range m.cursor {
		m.clamp(t)
	}
	return nil
}

// visible is the list of a tab, filtered by the search query, best first.
func (m *model) visible(t int) []item {
	if strings.TrimSpace(m.query) == "" {
		return m.lists[t]
	}
	ranked := m.rank()
	var found []item
	for _, it := range m.lists[t] {
		if _, ok := ranked[it.id]; ok {
			found = append(found, it)
		}
	}
	slices.SortStableFunc(found, func(a, b item) int { return ranked[a.id] - ranked[b.id] })
	return found
}

// rank is the place of each item search finds for the query (Search, as
// the search command and the MCP recall tool find it), once a query.
func (m *model) rank() map[string]int {
	if m.ranked != nil && m.rankedFor == m.query {
		return m.ranked
	}
	all := 0
	for _, list := range m.lists {
		all += len(list)
	}
	found, err := m.src.Search(recall.Query{Text: m.query}, max(1, all))
	if err != nil {
		m.status, m.failed = err.Error(), true
	}
	m.ranked, m.rankedFor = map[string]int{}, m.query
	for i, r := range found {
		m.ranked[r.ID] = i
	}
	return m.ranked
}

func (m *model) clamp(t int) {
	n := len(m.visible(t))
	m.cursor[t] = max(0, min(m.cursor[t], n-1))
}

func (m *model) selected() (item, bool) {
	list := m.visible(m.tab)
	if len(list) == 0 {
		return item{}, false
	}
	return list[m.cursor[m.tab]], true
}

func (m *model) Init() tea.Cmd { return nil }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		switch m.mode {
		case searching, writing:
			return m, m.typing(msg)
		case confirming:
			m.confirm(msg.String())
			return m, nil
		}
		return m, m.browse(msg.String())
	}
	return m, nil
}

func (m *model) browse(key string) tea.Cmd {
	list := m.visible(m.tab)
	page := max(1, m.listHeight())
	switch key {
	case "q", "esc":
		if key == "esc" && m.query != "" {
			m.query = ""
			m.clamp(m.tab)
			return nil
		}
		return tea.Quit
	case "up", "k":
		m.cursor[m.tab]--
	case "down", "j":
		m.cursor[m.tab]++
	case "pgup":
		m.cursor[m.tab] -= page
	case "pgdown", "space":
		m.cursor[m.tab] += page
	case "home", "g":
		m.cursor[m.tab] = 0
	case "end", "G":
		m.cursor[m.tab] = len(list) - 1
	case "tab", "right", "l":
		m.tab = (m.tab + 1) % len(tabNames)
	case "shift+tab", "left", "h":
		m.tab = (m.tab + len(tabNames) - 1) % len(tabNames)
	case "1", "2", "3", "4":
		m.tab = int(key[0] - '1')
	case "/":
		m.mode = searching
		m.input = []rune(m.query)
		return nil
	case "f", "r", "p", "s":
		m.act(key)
	}
	m.clamp(m.tab)
	return nil
}

// act asks to confirm the action of key on the selected item, or says why
// it does not apply.
func (m *model) act(key string) {
	it, ok := m.selected()
	if !ok {
		return
	}
	m.status, m.failed = "", false
	switch {
	case key == "f" && it.record == nil:
		m.ask = fmt.Sprintf("Forget %s (move it to %s)? y/n", it.id, m.src.Store.Names().Archive)
	case key == "r" && it.record != nil && it.record.Entry != nil:
		m.ask = fmt.Sprintf("Revive %s into Tier 2, dated today? y/n", it.id)
	case key == "p" && it.tier == 2 && it.entry.Importance >= 4:
		m.ask = fmt.Sprintf("Promote %s to Tier 1, where it never decays? y/n", it.id)
	case key == "s" && it.entry != nil:
		m.mode = writing
		m.input = nil
		return
	default:
		m.status, m.failed = notApplicable(key, it), true
		return
	}
	m.mode = confirming
	m.pending = func() (string, error) { return change(m.src, key, it.id, "") }
}

func notApplicable(key string, it item) string {
	switch key {
	case "f":
		return it.id + " is already in the archive"
	case "r":
		return "revive brings back an archived entry: open the Archive (4)"
	case "p":
		if it.entry != nil && it.tier == 2 {
			return fmt.Sprintf("%s has importance %d; Tier 1 holds only 4 and 5", it.id, it.entry.Importance)
		}
		return "promote moves a Tier 2 entry of importance 4 or 5 to Tier 1"
	}
	return "supersede replaces an entry of Tier 1 or 2 with a newer one"
}

// maxInput bounds what is typed: an entry's text is far shorter.
const maxInput = 2000

// typing edits the query or a new entry's text.
func (m *model) typing(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.mode = browsing
		return nil
	case "enter":
		text := string(m.input)
		if m.mode == searching {
			m.mode = browsing
			m.query = text
			m.clamp(m.tab)
			return nil
		}
		it, _ := m.selected()
		m.mode = confirming
		m.ask = fmt.Sprintf("Record %q and move %s to the archive as superseded by it? y/n", text, it.id)
		m.pending = func() (string, error) { return change(m.src, "s", it.id, text) }
		return nil
	case "backspace":
		if len(m.input) > 0 {
			m.input = m.input[:len(m.input)-1]
		}
	case "ctrl+u":
		m.input = nil
	default:
		if msg.Text != "" && len(m.input) < maxInput {
			m.input = append(m.input, []rune(msg.Text)...)
		}
	}
	if m.mode == searching {
		m.query = string(m.input) // filter as it is typed
		m.clamp(m.tab)
	}
	return nil
}

func (m *model) confirm(key string) {
	m.mode = browsing
	act := m.pending
	m.pending, m.ask = nil, ""
	msg, err := "nothing changed", error(nil)
	if key == "y" || key == "Y" {
		if msg, err = act(); err == nil {
			err = m.reload()
		}
	}
	m.status, m.failed = msg, err != nil
	if err != nil {
		m.status = err.Error()
	}
}

// The styles: bimri-hook-browse alone links this package.
var (
	bold, tabStyle = lipgloss.NewStyle().Bold(true), lipgloss.NewStyle().Padding(0, 1)
	current, sel   = tabStyle.Bold(true).Reverse(true), lipgloss.NewStyle().Reverse(true)
	dim            = lipgloss.NewStyle().Faint(true)
)

const detailLines = 8

func (m *model) listHeight() int {
	// title, tabs, rule; the list; rule, detail, rule, status, help
	return max(3, m.height-7-detailLines)
}

func (m *model) View() tea.View {
	w := max(40, m.width)
	var b strings.Builder
	b.WriteString(bold.Render(cut("bimri-hook browse  "+m.src.Store.Path(m.src.Store.Names().Memory)+"  today "+m.src.Today.Format("2006-01-02"), w)) + "\n")
	var tabs []string
	for i, name := range tabNames {
		label := fmt.Sprintf("%d %s (%d)", i+1, name, len(m.visible(i)))
		style := tabStyle
		if i == m.tab {
			style = current
		}
		tabs = append(tabs, style.Render(label))
	}
	line := lipgloss.JoinHorizontal(lipgloss.Top, tabs...)
	if m.query != "" || m.mode == searching {
		line += "  search: " + m.query
	}
	b.WriteString(line + "\n")
	rule := dim.Render(strings.Repeat("─", w)) + "\n"
	b.WriteString(rule)

	list := m.visible(m.tab)
	rows := m.listHeight()
	t := m.tab
	m.top[t] = min(m.cursor[t], max(m.top[t], m.cursor[t]-rows+1)) // the cursor's row in view
	for r := 0; r < rows; r++ {
		i := m.top[t] + r
		switch {
		case i < len(list) && i == m.cursor[t]:
			b.WriteString(sel.Render(cut("> "+list[i].line(m.src), w)) + "\n")
		case i < len(list):
			b.WriteString(cut("  "+list[i].line(m.src), w) + "\n")
		case r == 0 && len(list) == 0 && m.query != "":
			b.WriteString(dim.Render("  nothing here matches "+fmt.Sprintf("%q", m.query)) + "\n")
		case r == 0 && len(list) == 0:
			b.WriteString(dim.Render("  (nothing here)") + "\n")
		default:
			b.WriteString("\n")
		}
	}
	b.WriteString(rule)
	var status string
	switch {
	case m.mode == confirming:
		status = bold.Render(cut(m.ask, w))
	case m.mode == searching:
		status = cut("search (enter keeps it, esc leaves): "+string(m.input)+"█", w)
	case m.mode == writing:
		status = cut("new entry's text (enter, then y; esc cancels): "+string(m.input)+"█", w)
	default: // what a change said may take a second line, from the detail's room
		status = lipgloss.Wrap(m.status, w, " ")
		if lines := strings.Split(status, "\n"); len(lines) > 2 {
			status = strings.Join(lines[:2], "\n")
		}
		if m.failed {
			status = bold.Render(status)
		}
	}
	detail := ""
	if it, ok := m.selected(); ok {
		detail = it.detail(m.src)
	}
	lines := strings.Split(lipgloss.Wrap(detail, w, " "), "\n")
	for r := 0; r < detailLines-strings.Count(status, "\n"); r++ {
		if r < len(lines) {
			b.WriteString(cut(lines[r], w))
		}
		b.WriteString("\n")
	}
	b.WriteString(rule + status + "\n")
	b.WriteString(dim.Render(cut("↑↓ move  tab/1-4 list  / search  f forget  r revive  p promote  s supersede  q quit", w)))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func cut(s string, w int) string { return ansi.Truncate(s, w, "…") }
