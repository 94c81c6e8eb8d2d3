// cairn viewer: a small single-page app over the JSON API. No framework,
// no build step; every value from the API is inserted as text, never as
// markup, except the body HTML the server rendered with raw HTML disabled.
"use strict";

// The session cookie from the login link authorizes the viewer; a token
// given as #?token=... (cairn serve --print-token) works too.
const token = new URLSearchParams(location.hash.split("?")[1] || "").get("token") || sessionStorage.getItem("cairn-token") || "";
if (token) sessionStorage.setItem("cairn-token", token);

const $ = (sel) => document.querySelector(sel);
const side = $("#side"), main = $("#main");
let list = [];      // cards in the side list, for j/k
let sel = -1;       // selected index in list
let current = null; // the open memory

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}

async function api(path, opts = {}) {
  const headers = { "Accept": "application/json", "X-Cairn-Request": "1" };
  if (opts.body) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const res = await fetch(path, { ...opts, headers });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data.error && data.error.message) || res.statusText);
  return data;
}

function toast(msg) {
  const t = $("#toast");
  t.textContent = msg;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 2200);
}

const memPath = (uri) => "/api/memories/" + uri.replace(/^mem:\/\//, "");
const ago = (iso) => {
  const s = (Date.now() - new Date(iso)) / 1000;
  if (s < 90) return "just now";
  if (s < 5400) return Math.round(s / 60) + " min ago";
  if (s < 129600) return Math.round(s / 3600) + " h ago";
  if (s < 86400 * 60) return Math.round(s / 86400) + " days ago";
  return new Date(iso).toISOString().slice(0, 10);
};
const badge = (kind, status) => [el("span", { class: "badge" }, kind),
  status && status !== "active" ? el("span", { class: "badge status-" + status }, status) : null];

function item(c, i) {
  return el("a", { class: "item", href: "#/m/" + encodeURIComponent(c.uri), "data-i": i, "data-uri": c.uri },
    el("span", { class: "t" }, badge(c.kind, c.status), c.title),
    el("span", { class: "s" }, c.summary || c.uri));
}

function renderList(groups) {
  side.replaceChildren();
  list = [];
  for (const [name, cards] of groups) {
    const g = el("div", { class: "group" }, el("h3", {}, name + " · " + cards.length));
    for (const c of cards) { g.append(item(c, list.length)); list.push(c); }
    side.append(g);
  }
  if (!list.length) side.append(el("p", { class: "empty" }, "Nothing here."));
  select(current ? list.findIndex((c) => c.uri === current.uri.toString()) : -1, false);
}

function select(i, scroll = true) {
  side.querySelectorAll(".item.sel").forEach((e) => e.classList.remove("sel"));
  sel = i;
  const e = side.querySelector(`.item[data-i="${i}"]`);
  if (e) { e.classList.add("sel"); if (scroll) e.scrollIntoView({ block: "nearest" }); }
}

async function loadTree() {
  const data = await api("/api/tree");
  const groups = new Map();
  for (const c of data.cards) {
    const m = c.uri.match(/^mem:\/\/([^/]+)\/([^/]+)/);
    const key = m ? m[1] + " / " + m[2] : "other";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  renderList(groups);
  if (!current && !location.hash.startsWith("#/m/")) {
    main.replaceChildren(el("div", { class: "body" }, el("h1", {}, "Memory"),
      el("p", { class: "meta" }, data.cards.length + " memories. Pick one on the left, or search with /.")));
  }
}

async function runSearch() {
  const q = $("#q").value.trim(), kind = $("#kind").value, days = $("#since").value;
  if (!q && !kind && !days) return loadTree();
  const p = new URLSearchParams({ q, limit: "50" });
  if (kind) p.set("kind", kind);
  if (days) p.set("since", new Date(Date.now() - days * 86400000).toISOString().slice(0, 10));
  try {
    const data = await api("/api/search?" + p);
    renderList([["results for “" + (q || kind || "recent") + "”", data.results]]);
    if (list.length) select(0);
  } catch (e) { toast(e.message); }
}

function panel(m) {
  const dl = el("dl", { class: "panel", "aria-label": "Frontmatter" });
  const row = (k, v) => { if (v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && !v.length)) dl.append(el("dt", {}, k), el("dd", {}, v)); };
  row("uri", m.uri);
  row("kind", m.kind);
  row("status", m.status);
  row("tags", (m.tags || []).join(", "));
  row("importance", m.importance);
  row("pinned", m.pinned ? "yes" : "");
  row("created", m.created && new Date(m.created).toLocaleString());
  row("updated", m.updated && new Date(m.updated).toLocaleString());
  if (m.source) {
    row("session", m.source.session);
    row("agent", m.source.agent);
    row("extractor", m.source.extractor && m.source.extractor + " " + (m.source.version || ""));
    row("code commit", m.source.code_commit && m.source.code_commit.slice(0, 10));
  }
  if (m.supersedes && m.supersedes.length) dl.append(el("dt", {}, "supersedes"), ...m.supersedes.map((u) => el("dd", {}, el("a", { href: "#/m/" + encodeURIComponent(u) }, u))));
  if (m.superseded_by) dl.append(el("dt", {}, "superseded by"), el("dd", {}, el("a", { href: "#/m/" + encodeURIComponent(m.superseded_by) }, m.superseded_by)));
  if (m.all_links && m.all_links.length) dl.append(el("dt", {}, "links"), ...m.all_links.map((u) => el("dd", {}, el("a", { href: "#/m/" + encodeURIComponent(u) }, u))));
  return dl;
}

async function openMemory(uri) {
  try {
    const m = await api(memPath(uri) + "?html=1");
    current = m;
    const body = el("div", { class: "body", id: "memory-body" });
    if (m.html) {
      // Server-rendered by goldmark with raw HTML disabled.
      body.innerHTML = m.html;
    } else {
      body.append(el("p", { class: "empty" }, "(no body)"));
    }
    const pending = m.source && m.source.extractor && !m.reviewed;
    main.replaceChildren(
      el("h1", {}, m.title),
      el("div", { class: "meta" }, badge(m.kind, m.status), pending ? el("span", { class: "badge status-open" }, "to review") : null,
        el("span", {}, "updated " + ago(m.updated)), el("code", {}, m.uri)),
      pending && m.source.rule ? el("p", { class: "meta", id: "evidence" }, "Captured because " + m.source.rule +
        (m.confidence ? " (confidence " + m.confidence + ")" : "") + ".") : null,
      el("div", { class: "actions" },
        pending ? el("button", { type: "button", class: "primary", id: "keep-btn", onclick: () => decide(m.uri, "keep") }, "Keep (K)") : null,
        pending ? el("button", { type: "button", id: "forget-btn", onclick: () => decide(m.uri, "forget") }, "Forget (F)") : null,
        el("button", { type: "button", id: "edit-btn", onclick: () => go("#/edit/" + encodeURIComponent(m.uri)) }, "Edit (e)"),
        el("button", { type: "button", id: "history-btn", onclick: () => go("#/history/" + encodeURIComponent(m.uri)) }, "History (h)")),
      el("div", { class: "layout" }, body, panel(m)));
    select(list.findIndex((c) => c.uri === m.uri), true);
    main.focus();
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

function diffView(patch) {
  const box = el("div", { class: "diff" });
  for (const l of patch.split("\n")) {
    if (l.startsWith("diff ") || l.startsWith("index ") || l.startsWith("--- ") || l.startsWith("+++ ")) continue;
    const cls = l.startsWith("@@") ? "hunk" : l.startsWith("+") ? "add" : l.startsWith("-") ? "del" : "";
    box.append(el("div", { class: cls }, l || " "));
  }
  return box;
}

async function openHistory(uri) {
  try {
    const data = await api("/api/history?uri=" + encodeURIComponent(uri));
    const ul = el("ol", { class: "timeline", id: "timeline" });
    for (const c of data.commits) {
      const slot = el("div");
      const show = el("button", { type: "button", class: "show-diff" }, "show changes");
      show.addEventListener("click", async () => {
        if (slot.firstChild) { slot.replaceChildren(); return; }
        try {
          const d = await api("/api/diff?" + new URLSearchParams({ uri, to: c.hash }));
          slot.replaceChildren(diffView(d.patch));
        } catch (e) { slot.replaceChildren(el("p", { class: "error" }, e.message)); }
      });
      ul.append(el("li", {},
        el("div", {}, el("strong", {}, c.subject)),
        el("div", { class: "when" }, new Date(c.time).toLocaleString(), " · ", c.hash.slice(0, 8),
          c.session ? [" · session ", el("a", { href: "#/sessions?focus=" + encodeURIComponent(c.session) }, c.session)] : "",
          c.source ? " · " + c.source : ""),
        c.body ? el("div", { class: "when" }, c.body) : null,
        show, slot));
    }
    main.replaceChildren(el("h1", {}, "History"), el("div", { class: "meta" }, el("a", { href: "#/m/" + encodeURIComponent(uri) }, uri)), ul);
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

async function openEditor(uri) {
  try {
    const m = await api(memPath(uri) + "?raw=1");
    const ta = el("textarea", { class: "editor", id: "editor", spellcheck: "false", "aria-label": "Memory file" });
    ta.value = m.raw;
    const err = el("div", { class: "error", id: "edit-error" });
    const save = async () => {
      err.textContent = "";
      try {
        const out = await api(memPath(uri), { method: "PUT", body: JSON.stringify({ raw: ta.value, base: m.head, message: "edited in the viewer" }) });
        toast(out.commit ? "Saved, commit " + out.commit.slice(0, 8) : "No change");
        go("#/m/" + encodeURIComponent(uri));
      } catch (e) { err.textContent = e.message; }
    };
    ta.addEventListener("keydown", (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key === "s") { ev.preventDefault(); save(); }
      if (ev.key === "Escape") go("#/m/" + encodeURIComponent(uri));
    });
    main.replaceChildren(el("h1", {}, "Edit " + m.title),
      el("div", { class: "meta" }, "Frontmatter and body, as in the file. Saving validates and commits."),
      ta, err,
      el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", id: "save-btn", onclick: save }, "Save (Ctrl+S)"),
        el("button", { type: "button", onclick: () => go("#/m/" + encodeURIComponent(uri)) }, "Cancel")));
    ta.focus();
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

async function openSessions(focus) {
  try {
    const data = await api("/api/sessions");
    const box = el("div", { id: "sessions" });
    for (const s of data.sessions) {
      const ul = el("ul");
      for (const u of s.memories) ul.append(el("li", {}, el("a", { href: "#/m/" + encodeURIComponent(u) }, u.replace(/^mem:\/\//, ""))));
      const sec = el("div", { class: "session", id: "session-" + s.id },
        el("h3", {}, s.summary ? s.summary.title : s.id),
        el("div", { class: "meta" }, el("code", {}, s.id), el("span", {}, s.agent || ""),
          el("span", {}, new Date(s.first).toLocaleString() + " → " + ago(s.last)), el("span", {}, s.commits + " commit(s)")),
        s.summary && s.summary.summary ? el("p", {}, s.summary.summary) : null, ul);
      box.append(sec);
    }
    if (!data.sessions.length) box.append(el("p", { class: "empty" }, "No agent sessions yet: install the hooks with cairn install claude."));
    main.replaceChildren(el("h1", {}, "Sessions"), el("div", { class: "meta" }, "What each agent session captured, newest first."), box);
    if (focus) { const f = document.getElementById("session-" + focus); if (f) f.scrollIntoView(); }
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

// The review inbox: what capture wrote that no one has kept yet.
async function openInbox() {
  try {
    const data = await api("/api/review");
    renderList([["to review", data.pending]]);
    $("#inbox-link").textContent = "Inbox" + (data.pending.length ? " (" + data.pending.length + ")" : "");
    main.replaceChildren(el("h1", {}, "Review inbox"),
      el("p", { class: "meta", id: "inbox-note" }, data.pending.length ?
        data.pending.length + (data.pending.length === 1 ? " captured memory waits" : " captured memories wait") + " for review, oldest first. Open one, then keep it (K), edit it (e) or forget it (F)." :
        "Nothing to review: everything capture wrote has been kept or forgotten."));
    if (list.length) select(0);
    return data.pending;
  } catch (e) {
    main.replaceChildren(el("p", { class: "error" }, e.message));
    return [];
  }
}

async function decide(uri, decision) {
  let why = "";
  if (decision === "forget") {
    why = prompt("Why forget it? (recorded in the commit)", "not worth keeping");
    if (why === null) return;
  }
  try {
    const out = await api("/api/review", { method: "POST", body: JSON.stringify({ uri, decision, why }) });
    toast((decision === "keep" ? "Kept" : "Forgot") + ", commit " + out.commit.slice(0, 8));
    const rest = await openInbox();
    if (rest.length) go("#/m/" + encodeURIComponent(rest[0].uri));
    else go("#/inbox");
  } catch (e) { toast(e.message); }
}

function go(hash) { if (location.hash === hash) route(); else location.hash = hash; }

function route() {
  const h = location.hash || "#/";
  document.querySelectorAll(".views a").forEach((a) => a.classList.toggle("on", h === a.getAttribute("href") || (h.startsWith("#/sessions") && a.getAttribute("href") === "#/sessions")));
  let m;
  if ((m = h.match(/^#\/m\/(.+)$/))) return openMemory(decodeURIComponent(m[1]));
  if ((m = h.match(/^#\/history\/(.+)$/))) return openHistory(decodeURIComponent(m[1]));
  if ((m = h.match(/^#\/edit\/(.+)$/))) return openEditor(decodeURIComponent(m[1]));
  if (h.startsWith("#/sessions")) return openSessions(new URLSearchParams(h.split("?")[1] || "").get("focus"));
  if (h.startsWith("#/inbox")) { current = null; return openInbox(); }
  current = null;
  loadTree();
}

document.addEventListener("keydown", (ev) => {
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
  if (typing) {
    if (ev.key === "Escape") document.activeElement.blur();
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  switch (ev.key) {
    case "/": ev.preventDefault(); $("#q").focus(); $("#q").select(); break;
    case "j": if (list.length) select(Math.min(sel + 1, list.length - 1)); break;
    case "k": if (list.length) select(Math.max(sel - 1, 0)); break;
    case "Enter": if (sel >= 0 && list[sel]) go("#/m/" + encodeURIComponent(list[sel].uri)); break;
    case "e": if (current) go("#/edit/" + encodeURIComponent(current.uri)); break;
    case "h": if (current) go("#/history/" + encodeURIComponent(current.uri)); break;
    case "t": go("#/"); break;
    case "s": go("#/sessions"); break;
    case "i": go("#/inbox"); break;
    case "K": if (current && current.source && current.source.extractor && !current.reviewed) decide(current.uri, "keep"); break;
    case "F": if (current && current.source && current.source.extractor && !current.reviewed) decide(current.uri, "forget"); break;
    case "?": $("#help").showModal(); break;
  }
});

$("#search-form").addEventListener("submit", (ev) => { ev.preventDefault(); runSearch(); });
let typingTimer;
$("#q").addEventListener("input", () => { clearTimeout(typingTimer); typingTimer = setTimeout(runSearch, 180); });
$("#kind").addEventListener("change", runSearch);
$("#since").addEventListener("change", runSearch);
$("#help-btn").addEventListener("click", () => $("#help").showModal());
$("#theme").addEventListener("click", () => {
  const dark = document.documentElement.dataset.theme ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "light" : "dark";
  localStorage.setItem("cairn-theme", document.documentElement.dataset.theme);
});
if (localStorage.getItem("cairn-theme")) document.documentElement.dataset.theme = localStorage.getItem("cairn-theme");
window.addEventListener("hashchange", route);
loadTree().then(() => { if (location.hash && location.hash !== "#/") route(); });
