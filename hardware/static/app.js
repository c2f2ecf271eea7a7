// The kiosk and spectator page: renders the pushed state, sends the scorekeeper's actions.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get("kiosk")) document.body.classList.add("kiosk");
let state = null;
let frameCounter = 0;
let clockDeadline = null; // {limit: ms timestamp when the turn's time is up, countdown: s}

async function act(body) {
  const headers = { "Content-Type": "application/json" };
  const pin = sessionStorage.getItem("pin");
  if (pin) headers["X-Zonkcam-PIN"] = pin;
  const res = await fetch("/api/action", { method: "POST", headers, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 403) {
    const entered = prompt("PIN shown on the kiosk:");
    if (entered) { sessionStorage.setItem("pin", entered); return act(body); }
  }
  $("message").textContent = res.ok ? "" : (data.error || `error ${res.status}`);
  return data;
}

function render(s) {
  state = s;
  const access = s.access || {};
  const readonly = location.pathname === "/spectator" || (access.can_act === false && !sessionStorage.getItem("pin"));
  document.body.classList.toggle("readonly", readonly);
  $("title").textContent = s.game ? `zonkcam · ${s.game.title || s.game.variant}` : "zonkcam";
  $("pin").textContent = access.pin ? `PIN ${access.pin}` : "";
  const turn = s.turn || {};
  $("player").textContent = turn.player ? `${turn.player} to throw` : "";
  $("turn-total").textContent = turn.player ? `turn ${turn.total ?? 0}` : "";
  const cam = s.camera || {};
  $("camera-status").textContent = cam.message || "";
  $("camera-status").className = cam.status === "lost" ? "lost" : "";
  $("asks").textContent = turn.can_roll_asks ? `Ask "Can I roll?" ${turn.can_roll_asks}×` : "";
  $("demo").hidden = !cam.demo;
  const hits = s.hits_to_take || [];
  $("hits").textContent = hits.length ? "Hits to take: " + hits.map((h) => `${h.player} ${h.hits}¶`).join(" · ") : "";
  // A14: the server says how long the turn has had; the page counts down on its own clock.
  clockDeadline = turn.clock ? { at: Date.now() + 1000 * (turn.clock.limit_s - turn.clock.elapsed_s),
    countdown: turn.clock.countdown_s } : null;
  tickClock();
  const o = s.odds;
  $("odds").textContent = o ? `${o.dice} dice: ${(100 * o.zonk_chance).toFixed(1)}% to zonk · ` +
    `throw ≈ ${Math.round(o.throw_value)}` + (o.bank_value != null ? ` vs bank ${o.bank_value}` : "") +
    ` → ${o.advice}` : "";
  $("options").replaceChildren(...(turn.options || []).map((opt) => {
    const li = document.createElement("li");
    li.textContent = `${opt.points}: ${opt.combos.join(" + ")}`;
    return li;
  }));
  $("bank").disabled = !turn.can_bank;
  $("bank").title = turn.bank_blocker || "";
  renderSheet(s.sheet, turn.player);
  renderBoxes(s.dice || [], s.frame_size);
  const penalty = $("penalty");
  if (penalty.options.length === 1) {
    for (const p of s.penalties || []) penalty.add(new Option(p.label, p.name));
  }
  renderSummary(s.summary);
  renderRolloff(s.rolloff);
  if (!$("new-game-dialog").open) fillNewGame(s.new_game);
}

function tickClock() {
  const el = $("clock");
  if (!clockDeadline) { el.textContent = ""; el.className = ""; return; }
  const left = (clockDeadline.at - Date.now()) / 1000;
  if (left > 0) {
    const s = Math.ceil(left);
    el.textContent = `⏱ ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    el.className = left <= 10 ? "warn" : "";
  } else if (-left < clockDeadline.countdown) {
    el.textContent = `TIME! ${Math.ceil(clockDeadline.countdown + left)}`; // the visible countdown
    el.className = "urgent";
  } else {
    el.textContent = "TIME: loss of turn";
    el.className = "urgent";
  }
}
setInterval(tickClock, 250);

const pct = (x) => (x == null ? "–" : `${(100 * x).toFixed(1)}%`);
const num = (x) => (x == null ? "–" : String(x));

function cells(tr, values, tag = "td") {
  for (const v of values) { const c = document.createElement(tag); c.textContent = v; tr.append(c); }
  return tr;
}

function renderSummary(sum) {
  document.body.classList.toggle("over", !!sum);
  $("summary").hidden = !sum;
  if (!sum) return;
  const who = sum.winners && sum.winners.length ? `WINNER: ${sum.winners.join(", ")}` : "";
  const order = sum.finish_order && sum.finish_order.length ? `Finished: ${sum.finish_order.join(", ")}` : "";
  $("summary-winners").textContent = [who, order].filter(Boolean).join(" · ");
  $("summary-table").tBodies[0].replaceChildren(...sum.players.map((p) => cells(document.createElement("tr"),
    [p.name, p.score, p.hits, p.turns, p.zonks, pct(p.zonk_rate), num(p.average_turn), p.best_turn])));
  $("summary-gha").textContent = `G.H.A. (group hit average): ${sum.gha}`;
  $("summary-time").textContent = sum.started ? `${sum.started} – ${sum.ended || ""}` : "";
}

function renderRolloff(r) {
  document.body.classList.toggle("rolling", !!r);
  $("rolloff").hidden = !r;
  if (!r) return;
  $("rolloff-up").textContent = r.up ? `${r.up}: throw one die` : "";
  $("rolloff-table").tHead.replaceChildren(cells(document.createElement("tr"), ["", ...r.players], "th"));
  $("rolloff-table").tBodies[0].replaceChildren(...r.rounds.filter((round) => Object.keys(round).length)
    .map((round, i) => cells(document.createElement("tr"),
      [i ? `again ${i}` : "throw", ...r.players.map((p) => round[p] ?? "")])));
}

for (let v = 1; v <= 6; v++) {
  const b = document.createElement("button"); b.type = "button"; b.textContent = v;
  b.onclick = () => act({ action: "rolloff_throw", value: v });
  $("rolloff-enter").append(b);
}
$("rolloff-cancel").onclick = () => act({ action: "cancel_rolloff" });

function fillNewGame(ng) {
  if (!ng) return;
  const sel = $("ng-ruleset");
  sel.replaceChildren(...ng.rulesets.map((r) => new Option(r.label, r.key, false, r.key === ng.ruleset)));
  if (!$("ng-players").value) $("ng-players").value = ng.players.join(", ");
  $("ng-registry").replaceChildren(...ng.registry.map((name) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = `+ ${name}`;
    b.onclick = () => {
      const names = $("ng-players").value.split(",").map((n) => n.trim()).filter(Boolean);
      if (!names.includes(name)) names.push(name);
      $("ng-players").value = names.join(", ");
    };
    return b;
  }));
}

$("new-game").onclick = () => { fillNewGame(state && state.new_game); $("ng-error").textContent = ""; $("new-game-dialog").showModal(); };
$("ng-start").onclick = async (e) => {
  e.preventDefault();
  const form = $("new-game-form");
  const body = { action: "new_game", ruleset: $("ng-ruleset").value,
    players: $("ng-players").value.split(",").map((n) => n.trim()).filter(Boolean),
    order: form.elements.order.value };
  const res = await act(body);
  if (res && res.ok) { $("new-game-dialog").close(); $("ng-players").value = ""; }
  else $("ng-error").textContent = (res && res.error) || "not started";
};

function renderSheet(sheet, current) {
  if (!sheet) return;
  const head = document.createElement("tr");
  for (const name of sheet.players) {
    const th = document.createElement("th");
    th.textContent = name;
    if (name === current) th.className = "current";
    head.append(th);
  }
  $("sheet").tHead.replaceChildren(head);
  $("sheet").tBodies[0].replaceChildren(...sheet.rows.map((row) => {
    const tr = document.createElement("tr");
    if (row.halftime) tr.className = "halftime";
    for (const cell of row.cells) {
      const td = document.createElement("td");
      const evidence = cell && [].concat(cell.evidence || []);
      if (evidence && evidence.length) {
        // Every throw of the turn was kept; the last one decided the cell.
        const a = document.createElement("a");
        a.href = "#"; a.textContent = cell.text; a.title = `${evidence.length} throw(s): tap to see`;
        a.onclick = (e) => { e.preventDefault(); $("evidence-img").src = evidence[evidence.length - 1]; $("evidence").showModal(); };
        td.append(a);
      } else td.textContent = cell ? cell.text : "";
      tr.append(td);
    }
    return tr;
  }));
  const foot = document.createElement("tr");
  for (const t of sheet.totals || []) { const td = document.createElement("td"); td.textContent = t; foot.append(td); }
  $("sheet").tFoot.replaceChildren(foot);
}

function renderBoxes(dice, size) {
  const svg = $("boxes");
  if (!size) { svg.replaceChildren(); return; }
  svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren(...dice.flatMap((d, i) => {
    const [x1, y1, x2, y2] = d.box;
    const r = document.createElementNS(ns, "rect");
    Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 }).forEach(([k, v]) => r.setAttribute(k, v));
    if (d.status !== "ok") r.classList.add("bad");
    r.onclick = () => correctDie(i, d);
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", x1); t.setAttribute("y", y1 - 4);
    t.textContent = `${d.value ?? "?"} ${d.color ?? ""}`;
    return [r, t];
  }));
}

function correctDie(index, die) {
  if (document.body.classList.contains("readonly")) return;
  const dlg = $("correct");
  const pick = (field, value) => { dlg.close(); act({ action: "correct", die: index, [field]: value }); };
  $("values").replaceChildren(...[1, 2, 3, 4, 5, 6].map((v) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = v;
    b.onclick = () => pick("value", v); return b;
  }));
  $("colors").replaceChildren(...((state && state.colors) || []).map((c) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = c;
    b.onclick = () => pick("color", c); return b;
  }));
  dlg.showModal();
}

for (const button of document.querySelectorAll("button[data-action]")) {
  button.onclick = () => act({ action: button.dataset.action });
}
$("penalty").onchange = (e) => {
  const kind = e.target.value, label = e.target.selectedOptions[0]?.textContent || kind;
  e.target.value = "";
  if (kind) callPenalty(kind, label);
};

// A penalty falls on the player throwing unless another is chosen; league fouls and
// "lose the next turns" also take how many further turns are lost (A13, A15).
function callPenalty(kind, label) {
  const dlg = $("penalty-dialog");
  const players = (state && state.sheet && state.sheet.players) || [];
  const current = state && state.turn && state.turn.player;
  $("penalty-title").textContent = label;
  $("penalty-player").replaceChildren(...players.map((p) => new Option(p, p, p === current, p === current)));
  const counted = kind === "foul" || kind === "next";
  $("penalty-turns-label").hidden = !counted;
  $("penalty-turns").value = "1";
  $("penalty-form").onsubmit = (e) => {
    if (e.submitter && e.submitter.value !== "call") return;
    const body = { action: "penalty", penalty: kind, player: $("penalty-player").value };
    if (counted) body.turns = parseInt($("penalty-turns").value, 10);
    act(body);
  };
  dlg.showModal();
}

function refreshFrame() { $("frame").src = `/api/frame.jpg?n=${++frameCounter}`; }
const events = new EventSource("/api/events");
events.addEventListener("state", (e) => render(JSON.parse(e.data)));
events.addEventListener("frame", refreshFrame);
events.addEventListener("banner", (e) => {
  const b = JSON.parse(e.data);
  $("banner").textContent = b.text; $("banner").hidden = false;
  clearTimeout(window.bannerTimer);
  window.bannerTimer = setTimeout(() => { $("banner").hidden = true; }, 3000);
});
fetch("/api/state").then((r) => r.json()).then(render);
refreshFrame();
