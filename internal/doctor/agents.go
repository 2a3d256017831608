package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
)

// readAgents reads each other client's wiring here, in project and user
// scope: a client wired nowhere is not reported, as most people use one.
func (d *doctor) readAgents() {
	for _, cl := range wiring.Clients {
		for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
			if st, err := install.Check(cl, scope, d.root); err == nil {
				d.agents = append(d.agents, st)
				d.otherAgent = d.otherAgent || len(st.Events) > 0
			}
		}
	}
}

func (d *doctor) checkAgent(st install.Status) {
	cl, scope := st.Client, st.File.Scope
	name, fix := cl.Agent+" "+scope, "bimri-hook install --agent "+cl.Agent+" --scope "+scope
	hooks := st.Hooks()
	switch {
	case st.Err != nil:
		d.add(statusFail, name, st.Err.Error(), "fix the file, then bimri-hook install --agent "+cl.Agent)
		return
	case len(st.Events) == 0 && !st.MCP:
		return
	case len(st.Events) == 0:
		d.add(statusWarn, name, fmt.Sprintf("%s registers the MCP server, but %s runs no hook of bimri-hook's", st.File.Path, hooks), fix)
	case len(st.Skipped) > 0:
		d.add(statusFail, name, fmt.Sprintf("%s wires bimri-hook, but Codex will skip %d of its %d hooks: their hash is not trusted in %s",
			hooks, len(st.Skipped), len(st.States), filepath.Join(install.CodexHome(), "config.toml")), fix+", or trust them in Codex's /hooks")
	case len(st.Events) < len(cl.Events):
		d.add(statusWarn, name, fmt.Sprintf("%s runs bimri-hook hook %s at %s only, not at every one of %s", hooks, cl.Agent, strings.Join(st.Events, ", "), install.EventList(cl.Events)), fix)
	default:
		detail := fmt.Sprintf("%s runs bimri-hook hook %s at %s", hooks, cl.Agent, strings.Join(st.Events, ", "))
		switch cl.Agent {
		case wiring.Codex.Agent:
			detail += ", each hook trusted"
		case wiring.Cursor.Agent:
			detail += " (unverified: no Cursor client was tried)"
		}
		d.add(statusOK, name, detail, "")
	}
	if st.ProjectUntrusted {
		d.add(statusFail, name, fmt.Sprintf("Codex does not read %s: the project is not trusted in Codex", filepath.Dir(hooks)),
			"run codex in the project once and trust it (or codex exec --trust)")
	}
	where := st.File.Path
	if cl.Agent == wiring.Codex.Agent {
		where = "Codex's config.toml"
	}
	if (cl.MCPKey != "" || cl.Agent == wiring.Codex.Agent) && !st.MCP {
		d.add(statusWarn, name, fmt.Sprintf("no MCP server %q in %s: the agent records through its shell only", wiring.MCPServer, where), fix)
	}
}
