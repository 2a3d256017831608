// bimri-hook's OpenCode plugin, written by `bimri-hook install --agent opencode`
// and taken out by `bimri-hook uninstall --agent opencode`: it runs
// `bimri-hook hook opencode` on OpenCode's events, with Claude Code's
// payload fields, and gives the model the memory it answers.
import { spawn } from "node:child_process"

const BINARY = __BIMRI_BINARY__

// hook runs bimri-hook with one event's payload and gives back its
// additionalContext, or "" when it has none, fails or takes over 10 s:
// a hook never stops the user's session.
function hook(directory, payload) {
  return new Promise((resolve) => {
    let out = ""
    let child
    try {
      child = spawn(BINARY, ["hook", "opencode"], { cwd: directory, stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return resolve("")
    }
    const timer = setTimeout(() => child.kill(), 10000)
    child.on("error", () => resolve(""))
    child.stdout.on("data", (chunk) => (out += chunk))
    child.on("close", () => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(out)?.hookSpecificOutput?.additionalContext ?? "")
      } catch {
        resolve("")
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export const BimriHook = async ({ directory }) => {
  const memory = new Map() // session ID -> SessionStart's memory view
  const recalled = new Map() // session ID -> the last prompt's recall
  const payload = (sessionID, event, more) => ({
    session_id: sessionID,
    transcript_path: "",
    cwd: directory,
    hook_event_name: event,
    ...more,
  })
  return {
    // The system prompt is built for every model request: the memory
    // view, read once per session, and the last prompt's recall go in.
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID
      if (!id) return
      if (!memory.has(id)) {
        memory.set(id, await hook(directory, payload(id, "SessionStart", { source: "startup" })))
      }
      for (const text of [memory.get(id), recalled.get(id)]) {
        if (text) output.system.push(text)
      }
    },
    "chat.message": async (input, output) => {
      const prompt = output.parts
        .filter((p) => p.type === "text" && !p.synthetic)
        .map((p) => p.text)
        .join("\n")
      if (!prompt) return
      recalled.set(input.sessionID, await hook(directory, payload(input.sessionID, "UserPromptSubmit", { prompt })))
    },
    // OpenCode has no session end a plugin is told of: its session goes
    // idle when the agent's turn ends, and bimri-hook counts a session at
    // its first Stop and runs the session-end pass there.
    event: async ({ event }) => {
      if (event.type === "session.idle" && event.properties?.sessionID) {
        await hook(directory, payload(event.properties.sessionID, "Stop", { stop_hook_active: false }))
      }
    },
  }
}
