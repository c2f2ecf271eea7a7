// The kiosk and spectator page: renders the pushed state, sends the scorekeeper's actions.
// Every field of the state may be missing or null (an older server): render never throws.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const spectator = location.pathname === "/spectator";
if (params.get("kiosk")) document.body.classList.add("kiosk");
document.body.classList.toggle("spectator", spectator);
let state = {};
let clockDeadline = null; // {at: ms timestamp when the turn's time is up, countdown: s}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "data") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e[k] = v;
    else if (v != null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.filter((c) => c != null));
  return e;
}
const button = (text, onclick, props = {}) => el("button", { type: "button", onclick, ...props }, text);

// One part of the page failing to render must not blank the others.
function safely(part, ...args) {
  try { part(...args); } catch (err) { console.error(`render ${part.name}:`, err); }
}

// Settings: the PIN lasts the browser tab; sound and video are remembered per kind of page.
const pin = () => sessionStorage.getItem("pin");
const pageKind = spectator ? "spectator" : "kiosk";
function setting(name, fallback) {
  const v = localStorage.getItem(`${name}:${pageKind}`);
  return v === null ? fallback : v === "1";
}
const remember = (name, on) => localStorage.setItem(`${name}:${pageKind}`, on ? "1" : "0");
const canAct = () => !!pin() || (!spectator && (state.access || {}).can_act !== false);

function pinHeaders(extra = {}) {
  return pin() ? { ...extra, "X-Zonkcam-PIN": pin() } : extra;
}

async function act(body) {
  let res, data;
  try {
    res = await fetch("/api/action", { method: "POST", headers: pinHeaders({ "Content-Type": "application/json" }),
      body: JSON.stringify(body) });
    data = await res.json().catch(() => ({}));
  } catch {
    showMessage("The kiosk is not answering", "error");
    return { error: "no answer" };
  }
  if (res.status === 403) { // no PIN, or a PIN that no longer holds
    sessionStorage.removeItem("pin");
    render(state);
    openPin(data.error);
    return data;
  }
  if (!res.ok) {
    const error = data.error || `refused (error ${res.status})`;
    showMessage(error, "error");
    return { error };
  }
  if (data.message) showMessage(data.message, "info");
  return data;
}

let messageTimer = null;
function showMessage(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { m.hidden = true; }, kind === "error" ? 10000 : 6000);
}

function render(s) {
  state = s || {};
  document.body.classList.toggle("readonly", !canAct());
  safely(renderHeader, state);
  safely(renderTurn, state);
  safely(renderThrow, state.throw);
  safely(renderControls, state);
  safely(renderSheet, state);
  safely(renderSummary, state.summary);
  safely(renderRolloff, state.rolloff);
  if (!$("new-game-dialog").open) safely(fillNewGame, state);
}

function renderHeader(s) {
  const game = s.game || {};
  const access = s.access || {};
  $("title").textContent = game.title || game.variant || "zonkcam";
  document.title = game.title ? `zonkcam · ${game.title}` : "zonkcam";
  $("round").textContent = game.round ? `Round ${game.round}` : "";
  if (access.local && access.lan && !pairing) loadPairing();
  $("pin").hidden = !(access.local && pairing);
  $("unlock").hidden = canAct();
  $("review-link").hidden = !s.review;
  const cam = s.camera || {};
  $("camera-status").textContent = cam.message || "";
  $("camera-status").className = cam.status === "lost" ? "lost" : "";
  $("demo").hidden = !cam.demo;
}

function renderTurn(s) {
  const turn = s.turn || {};
  const name = turn.player;
  $("player").replaceChildren(...(name ? [el("b", { id: "player-name" }, name), " to throw"] : ["—"]));
  // What the turn is worth banked now: the kept total plus this throw's best keep.
  const worth = turn.bank_adds ?? turn.total;
  $("turn-points").textContent = name ? String(worth ?? 0) : "";
  $("turn-total").hidden = !name;
  $("asks").textContent = turn.can_roll_asks ? `Ask "Can I roll?" ${turn.can_roll_asks}×` : "";
  const hits = s.hits_to_take || [];
  $("hits").textContent = hits.length ? "Hits to take: " + hits.map((h) => `${h.player} ${h.hits}¶`).join(" · ") : "";
  // The server says how long the turn has had; the page counts down on its own clock.
  const clock = turn.clock;
  clockDeadline = clock ? { at: Date.now() + 1000 * (clock.limit_s - clock.elapsed_s),
    countdown: clock.countdown_s || 0 } : null;
  tickClock();
  const best = turn.best;
  $("best").replaceChildren(...(best ? [el("b", {}, `+${best.points}`), " ", (best.combos || []).join(" + ")] : []));
  const options = (turn.options || []).filter((o, i) => !(i === 0 && best && o.points === best.points));
  $("options").replaceChildren(...options.map((o) => el("li", {}, "or ", el("b", {}, String(o.points)), " ",
    (o.combos || []).join(" + "), o.all_scored ? " (hot dice)" : "")));
  $("options").hidden = !options.length;
  const o = s.odds;
  $("odds").replaceChildren(...(o ? [
    `${o.dice} ${o.dice === 1 ? "die" : "dice"}: ${pct(o.zonk_chance)} to zonk · throw ≈ ${Math.round(o.throw_value)}`,
    o.bank_value != null ? ` vs bank ${o.bank_value}` : "", " → ", el("b", {}, o.advice || "")] : []));
  safely(renderShaharazad, s.shaharazad);
}

function renderShaharazad(sh) {
  const box = $("shaharazad");
  box.hidden = !sh;
  if (!sh) return;
  const items = [el("p", {}, `Shaharazad: ${sh.leader} leads`)];
  if (sh.requested) {
    items[0].textContent = `${sh.requested} requests shaharazad from ${sh.leader}`;
    items.push(button(`${sh.leader} accepts`, () => confirmThen(`${sh.leader} accepts the shaharazad?`, "",
      { action: "accept" })));
    items.push(button(`${sh.leader} declines`, () => confirmThen(`${sh.leader} declines the shaharazad?`, "",
      { action: "decline" })));
  } else {
    for (const name of sh.may_request || []) {
      items.push(button(`${name} requests shaharazad`, () => confirmThen(`${name} requests shaharazad?`,
        `${sh.leader} then accepts or declines.`, { action: "shaharazad", player: name })));
    }
  }
  box.replaceChildren(...items);
}

// Dice drawn as dice: a square in the set's colour with pips in whichever ink shows on it.
const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function colorOf(name) {
  const c = (state.colors || []).find((c) => (c && typeof c === "object" ? c.name : c) === name);
  return (c && c.css) || name || "#f4f4f0";
}
const paint = document.createElement("canvas").getContext("2d");
function inkFor(css) {
  paint.fillStyle = "#000"; paint.fillStyle = css; // normalises any CSS colour to #rrggbb
  const hex = /^#([0-9a-f]{6})$/i.exec(paint.fillStyle);
  if (!hex) return "#111";
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
}
function dieFace(value, css, unread = false) {
  const svg = svgEl("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" });
  svg.append(svgEl("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: css, class: "face" }));
  const ink = inkFor(css);
  if (unread || !PIPS[value]) {
    const t = svgEl("text", { x: 20, y: 29, "text-anchor": "middle", fill: ink, class: "unread" });
    t.textContent = "?";
    svg.append(t);
  } else {
    for (const p of PIPS[value]) {
      const col = (p - 1) % 3, row = Math.floor((p - 1) / 3);
      svg.append(svgEl("circle", { cx: 11 + 9 * col, cy: 11 + 9 * row, r: 3.6, fill: ink }));
    }
  }
  return svg;
}
const dieName = (d) => [d.color, d.value ?? "unread"].filter((x) => x != null).join(" ");

const unread = (d) => d.value == null || (d.status != null && d.status !== "ok");
const isKept = (d) => d.kept || d.index == null;

// Dice kept from earlier throws are shown apart and small: they are not this throw's to correct.
function renderThrow(thr) {
  const dice = (thr && thr.dice) || [];
  const face = (d) => dieFace(d.value, colorOf(d.color), unread(d));
  const kept = dice.filter(isKept);
  const keptGroup = kept.length ? el("span", { class: "kept-dice",
    "aria-label": `kept from an earlier throw: ${kept.map(dieName).join(", ")}` },
  el("span", {}, ...kept.map((d) => el("span", { class: "die" }, face(d)))), el("small", {}, "kept")) : null;
  const thrown = dice.filter((d) => !isKept(d)).map((d) => button(face(d), () => correctDie(thr, d),
    { class: unread(d) ? "die unread" : "die", "aria-label": `die ${d.index + 1}: ${dieName(d)}`, disabled: !canAct() }));
  $("dice").replaceChildren(...[keptGroup, ...thrown].filter(Boolean));
  $("throw").hidden = !dice.length;
  $("photo").hidden = !(thr && thr.frame);
  const note = thr ? [thr.label, thr.scored === false ? "not scored yet" : "", thr.reason].filter(Boolean) : [];
  $("throw-note").textContent = note.join(" · ");
  $("throw-note").className = thr && thr.scored === false ? "pending" : "";
  renderStill(thr);
}

// The boxes go over the still frame the throw was read from, never over the live picture:
// the dice may have moved since. Drawn in the photo dialog and, where there is room, inline.
function renderStill(thr) {
  $("still-title").textContent = (thr && thr.label) || "This throw";
  $("still-inline").hidden = !(thr && thr.frame);
  drawStill($("still-img"), $("boxes"), thr);
  drawStill($("still-inline-img"), $("boxes-inline"), thr);
}

function drawStill(img, svg, thr) {
  const frame = thr && thr.frame, size = thr && thr.frame_size;
  if (!frame) img.removeAttribute("src");
  else if (img.getAttribute("src") !== frame) img.src = frame;
  svg.replaceChildren();
  if (!frame || !size) return;
  svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const tag = Math.max(14, size[1] / 22);
  svg.append(...(thr.dice || []).filter((d) => d.box && !isKept(d)).flatMap((d) => {
    const [x1, y1, x2, y2] = d.box;
    const r = svgEl("rect", { x: x1, y: y1, width: x2 - x1, height: y2 - y1 });
    if (unread(d)) r.classList.add("bad");
    r.onclick = () => correctDie(thr, d);
    const t = svgEl("text", { x: x1 + 3, y: y1 + tag, "font-size": tag });
    t.textContent = d.index + 1; // the number the correction dialog names it by
    return [r, t];
  }));
}
$("photo").onclick = () => $("still").showModal();

// The table region, dragged by its corners over a fresh picture from the camera. Points are in
// the camera frame's pixels (the server's `table.frame_size`), whatever size the picture shows.
let regionPoints = [];
function openRegion() {
  const t = state.table;
  if (!t || !t.frame_size) { showMessage("No picture from the camera yet", "error"); return; }
  const [w, h] = t.frame_size;
  regionPoints = (t.polygon || [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]].map(([x, y]) => [x * w, y * h]))
    .map(([x, y]) => [Math.round(x), Math.round(y)]);
  $("region-img").src = `/api/frame.jpg?region=${Date.now()}`;
  drawRegion();
  $("region-dialog").showModal();
}
function drawRegion() {
  const [w, h] = state.table.frame_size;
  const svg = $("region-svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const r = Math.max(w, h) / 25;
  svg.replaceChildren(svgEl("polygon", { points: regionPoints.map((p) => p.join(",")).join(" ") }),
    ...regionPoints.map(([x, y], i) => {
      const c = svgEl("circle", { cx: x, cy: y, r, "data-corner": i });
      c.onpointerdown = (e) => dragCorner(e, i);
      return c;
    }));
}
function dragCorner(e, i) {
  e.preventDefault();
  const svg = $("region-svg");
  svg.setPointerCapture(e.pointerId);
  const [w, h] = state.table.frame_size;
  const move = (ev) => {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM().inverse());
    regionPoints[i] = [Math.round(Math.min(w, Math.max(0, p.x))), Math.round(Math.min(h, Math.max(0, p.y)))];
    drawRegion();
  };
  const up = () => { svg.removeEventListener("pointermove", move); svg.removeEventListener("pointerup", up); };
  svg.addEventListener("pointermove", move);
  svg.addEventListener("pointerup", up);
}
$("region").onclick = openRegion;
$("region-save").onclick = async () => {
  const res = await act({ action: "table", polygon: regionPoints });
  if (res && res.ok) $("region-dialog").close();
};

function correctDie(thr, die) {
  if (isKept(die)) return;
  const dlg = $("correct");
  const what = dieName(die);
  if (!canAct()) { openPin("Enter the PIN to correct a die."); return; }
  $("correct-title").textContent = `${thr.label || "This throw"}, die ${die.index + 1} (${what})`;
  $("correct-note").textContent = unread(die) ? `Read as ${die.status || "unread"}: set what it shows.` : "";
  const pick = (field, value) => {
    dlg.close();
    const body = { action: "correct", die: die.index, [field]: value };
    if (thr.id != null) body.throw = thr.id;
    act(body);
  };
  const ink = colorOf(die.color);
  $("values").replaceChildren(...[1, 2, 3, 4, 5, 6].map((v) => {
    const b = button(null, () => pick("value", v), { data: { value: v }, "aria-label": `value ${v}` });
    b.append(dieFace(v, ink), String(v));
    return b;
  }));
  $("colors").replaceChildren(...(state.colors || []).map((c) => {
    const name = c && typeof c === "object" ? c.name : c;
    const b = button(el("span", { class: "swatch", style: `background:${colorOf(name)}` }), () => pick("color", name),
      { data: { color: name } });
    b.append(` ${name}`);
    return b;
  }));
  dlg.showModal();
}

function renderControls(s) {
  const turn = s.turn || {};
  const bank = $("bank");
  bank.disabled = !turn.can_bank;
  $("bank-label").textContent = turn.bank_adds != null ? `Bank +${turn.bank_adds}` : "Bank";
  $("bank-why").textContent = turn.can_bank ? "" : (turn.bank_blocker || (turn.player ? "nothing to bank yet" : ""));
  // undo/redo absent: an older server, whose undo works but says nothing about what it takes back
  const undo = $("undo");
  undo.disabled = s.undo === null;
  undo.textContent = s.undo && s.undo.label ? `Undo: ${s.undo.label}` : "Undo";
  const redo = $("redo");
  redo.hidden = s.redo === undefined;
  redo.disabled = !s.redo;
  redo.textContent = s.redo && s.redo.label ? `Redo: ${s.redo.label}` : "Redo";
  $("end-game").hidden = s.end_game ? !s.end_game.allowed : false;
  const penalty = $("penalty");
  const penalties = s.penalties || [];
  if (penalty.options.length !== penalties.length + 1) {
    penalty.replaceChildren(new Option("Penalty", ""), ...penalties.map((p) => new Option(p.label, p.name)));
  }
}

$("bank").onclick = () => act({ action: "bank" });
$("undo").onclick = () => act({ action: "undo" });
$("redo").onclick = () => act({ action: "redo" });
$("end-game").onclick = () => confirmThen("End the game now?",
  "The scores stand as they are and the game is over for everyone.", { action: "end_game" });

// Big-button confirmation for what cannot be taken back by a tap (window.confirm is tiny).
function confirmThen(question, note, body, yes = "Yes") {
  $("confirm-text").textContent = question;
  $("confirm-note").textContent = note || "";
  $("confirm-yes").textContent = yes;
  $("confirm").onclose = () => { if ($("confirm").returnValue === "yes") act(body); };
  $("confirm").returnValue = "";
  $("confirm").showModal();
}

const pct = (x) => (x == null ? "–" : `${(100 * x).toFixed(1)}%`);
const num = (x) => (x == null ? "–" : String(x));

function cells(tr, values, tag = "td") {
  tr.append(...values.map((v) => el(tag, {}, String(v ?? ""))));
  return tr;
}

let scrolledTo = null; // the row the sheet was last scrolled to: later renders leave the reader be
function renderSheet(s) {
  const sheet = s.sheet;
  if (!sheet) return;
  const names = sheet.players || [];
  const byName = Object.fromEntries((s.players || []).map((p) => [p.name, p]));
  const current = (s.turn || {}).player;
  const col = (name) => (name === current ? "current" : null);
  const worth = (s.turn || {}).bank_adds ?? (s.turn || {}).total;
  const live = (name) => (name === current && worth ? `+${worth}` : "");
  const game = s.game || {};
  $("sheet-header").textContent = [game.target ? `first to ${game.target}` : "", game.header].filter(Boolean).join(" · ");
  $("sheet").tHead.replaceChildren(el("tr", {}, el("th", { class: "round", "aria-label": "round" }),
    ...names.map((n) => el("th", { class: col(n), scope: "col" }, n))));
  const rows = sheet.rows || [];
  const now = currentRow(rows, s.game || {});
  $("sheet").tBodies[0].replaceChildren(...rows.map((row, i) => {
    const tr = el("tr", { class: [row.halftime ? "halftime" : "", i === now ? "now" : ""].join(" ").trim() || null },
      el("th", { class: "round", scope: "row" }, row.label ?? ""));
    (row.cells || []).forEach((cell, j) => tr.append(sheetCell(cell, names[j], row.label, live(names[j]))));
    return tr;
  }));
  // Totals: the score big with any hits beside it, then how far each is from the target.
  const totals = sheet.totals || [];
  const foot = [el("tr", {}, el("th", { class: "round" }, "Σ"), ...names.map((n, j) => {
    const p = byName[n];
    if (!p) return el("td", { class: col(n) }, el("span", { class: "score" }, totals[j] ?? ""));
    return el("td", { class: col(n) }, el("span", { class: "score" }, String(p.score ?? "")),
      p.hits ? el("span", { class: "hits" }, ` ${p.hits}¶`) : null);
  }))];
  if (names.some((n) => byName[n] && byName[n].to_target != null)) {
    foot.push(el("tr", {}, el("th", { class: "round" }, "to go"),
      ...names.map((n) => el("td", { class: ["to-go", col(n)].filter(Boolean).join(" ") },
        String((byName[n] || {}).to_target ?? "")))));
  }
  $("sheet").tFoot.replaceChildren(...foot);
  const legend = s.legend || [];
  $("legend").replaceChildren(...legend.flatMap((l) => [el("b", {}, l.mark), ` ${l.meaning}  `]));
  $("legend").hidden = !legend.length;
  const key = `${game.id}:${now}:${current}`;
  if (now != null && key !== scrolledTo) {
    scrolledTo = key;
    scrollRowIntoPanel($("sheet").tBodies[0].rows[now]);
  }
}

// A turn being played shows what it is worth so far in its cell (`running`, for that player).
function sheetCell(cell, player, round, running) {
  const td = el("td", { class: cell && cell.kind ? `k-${cell.kind}` : null });
  if (!cell) return td;
  const evidence = [].concat(cell.evidence || []);
  if (!evidence.length) {
    td.textContent = cell.text || (cell.kind === "live" && running ? running : "");
    return td;
  }
  td.append(el("a", { href: "#", class: "cell-link",
    onclick: (e) => { e.preventDefault(); showEvidence(`${player}, ${round ? `round ${round}` : "this turn"}`, evidence); },
  }, cell.text || "·"));
  return td;
}

// The live turn's row, else the game's round by its label, else the last row with anything in it.
function currentRow(rows, game) {
  let i = rows.findIndex((r) => r.current);
  if (i < 0) i = rows.findIndex((r) => (r.cells || []).some((c) => c && c.kind === "live"));
  if (i < 0 && game.round != null) i = rows.findIndex((r) => r.label === String(game.round));
  if (i < 0) i = rows.findLastIndex((r) => (r.cells || []).some((c) => c && c.text));
  return i < 0 ? null : i;
}

function scrollRowIntoPanel(row) {
  const box = $("sheet-scroll");
  if (!row || box.scrollHeight <= box.clientHeight || getComputedStyle(box).overflowY === "visible") return;
  const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
  box.scrollTop += top - (box.clientHeight - row.offsetHeight) / 2;
}

function showEvidence(title, urls) {
  const show = (i) => {
    $("evidence-img").src = urls[i];
    [...$("evidence-pick").children].forEach((b, j) => b.setAttribute("aria-pressed", String(i === j)));
  };
  $("evidence-title").textContent = title;
  $("evidence-pick").replaceChildren(...(urls.length > 1 ? urls.map((_, i) => button(`Throw ${i + 1}`, () => show(i))) : []));
  show(urls.length - 1); // every throw of the turn was kept; the last one decided the cell
  $("evidence").showModal();
}

function renderSummary(sum) {
  document.body.classList.toggle("over", !!sum);
  $("summary").hidden = !sum;
  if (!sum) return;
  const who = sum.winners && sum.winners.length ? `WINNER: ${sum.winners.join(", ")}` : "";
  const order = sum.finish_order && sum.finish_order.length ? `Finished: ${sum.finish_order.join(", ")}` : "";
  $("summary-winners").textContent = [who, order].filter(Boolean).join(" · ");
  $("summary-table").tBodies[0].replaceChildren(...(sum.players || []).map((p) => cells(el("tr"),
    [p.name, p.score, p.hits, p.turns, p.zonks, pct(p.zonk_rate), num(p.average_turn), p.best_turn])));
  $("summary-gha").textContent = `G.H.A. (group hit average): ${sum.gha}`;
  const hm = (iso) => (iso && iso.length >= 16 ? iso.slice(11, 16) : iso || "");
  $("summary-time").textContent = sum.started ? `played ${hm(sum.started)}–${hm(sum.ended)}` : "";
  // A mistaken last action (a bank keyed in twice) can still be taken back from here.
  const undo = $("summary-undo");
  undo.hidden = !(state.undo && state.undo.label);
  undo.textContent = state.undo && state.undo.label ? `Undo: ${state.undo.label}` : "Undo";
}
$("summary-undo").onclick = () => act({ action: "undo" });

function renderRolloff(r) {
  document.body.classList.toggle("rolling", !!r);
  $("rolloff").hidden = !r;
  if (!r) return;
  const players = r.players || [];
  $("rolloff-up").textContent = r.up ? `${r.up}: throw one die` : "";
  $("rolloff-table").tHead.replaceChildren(cells(el("tr"), ["", ...players], "th"));
  $("rolloff-table").tBodies[0].replaceChildren(...(r.rounds || []).filter((round) => Object.keys(round).length)
    .map((round, i) => cells(el("tr"), [i ? `again ${i}` : "throw", ...players.map((p) => round[p] ?? "")])));
}

for (let v = 1; v <= 6; v++) $("rolloff-enter").append(button(String(v), () => act({ action: "rolloff_throw", value: v })));
$("rolloff-cancel").onclick = () => act({ action: "cancel_rolloff" });

function fillNewGame(s) {
  const ng = s.new_game;
  const running = s.game && !s.summary;
  $("ng-warning").hidden = !running;
  $("ng-warning").textContent = running ? `The game being played${s.game.id != null ? ` (#${s.game.id})` : ""} is left ` +
    "unfinished; it can be resumed later from here." : "";
  const unfinished = (s.unfinished || []).filter((g) => !s.game || g.id !== s.game.id);
  $("ng-unfinished").replaceChildren(...(unfinished.length ? [el("h3", {}, "Resume an unfinished game")] : []),
    ...unfinished.map((g) => el("div", { class: "resume" },
      el("span", {}, `#${g.id} ${g.variant || ""}: ${(g.players || []).join(", ")}${g.started ? ` · ${g.started}` : ""}`),
      button("Resume", async () => { if ((await act({ action: "resume", game: g.id })).ok) $("new-game-dialog").close(); },
        { data: { game: g.id } }))));
  if (!ng) return;
  $("ng-ruleset").replaceChildren(...(ng.rulesets || []).map((r) => new Option(r.label, r.key, false, r.key === ng.ruleset)));
  if (!$("ng-players").value) $("ng-players").value = (ng.players || []).join(", ");
  $("ng-registry").replaceChildren(...(ng.registry || []).map((name) => button(`+ ${name}`, () => {
    const names = $("ng-players").value.split(",").map((n) => n.trim()).filter(Boolean);
    if (!names.includes(name)) names.push(name);
    $("ng-players").value = names.join(", ");
  })));
}

$("new-game").onclick = () => { fillNewGame(state); $("ng-error").textContent = ""; $("new-game-dialog").showModal(); };
$("ng-start").onclick = async (e) => {
  e.preventDefault();
  const body = { action: "new_game", ruleset: $("ng-ruleset").value,
    players: $("ng-players").value.split(",").map((n) => n.trim()).filter(Boolean),
    order: $("new-game-form").elements.order.value };
  const res = await act(body);
  if (res && res.ok) { $("new-game-dialog").close(); $("ng-players").value = ""; }
  else $("ng-error").textContent = (res && res.error) || "not started";
};

$("penalty").onchange = (e) => {
  const kind = e.target.value, label = e.target.selectedOptions[0]?.textContent || kind;
  e.target.value = "";
  if (kind) callPenalty(kind, label);
};

// A penalty falls on the player throwing unless another is chosen; league fouls and
// "lose the next turns" also take how many further turns are lost (A13, A15).
function callPenalty(kind, label) {
  const players = (state.sheet && state.sheet.players) || [];
  const current = state.turn && state.turn.player;
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
  $("penalty-dialog").showModal();
}

// The kiosk's own screen shows the PIN and a QR code of the page's LAN address with it:
// /api/pairing answers this screen only, and the PIN is in no state a page is sent.
let pairing = null, pairingAsked = false;
async function loadPairing() {
  if (pairingAsked) return;
  pairingAsked = true;
  try {
    const res = await fetch("/api/pairing");
    if (!res.ok) return;
    pairing = await res.json();
  } catch { pairingAsked = false; return; }
  $("pin").textContent = `PIN ${pairing.pin}`;
  $("pairing-qr").innerHTML = pairing.qr_svg; // made by the server (segno), not from input
  $("pairing-url").textContent = pairing.url.split("#")[0];
  $("pairing-pin").textContent = pairing.pin;
  render(state);
}
$("pin").onclick = () => $("pairing-dialog").showModal();

// A phone that scanned the kiosk's QR code arrives with the PIN in the address's fragment
// (never sent to a server, so in no log); it is used once and taken out of the address.
function pinFromAddress() {
  const match = /^#pin=(\d{6,8})$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);
  unlock(match[1]);
}

// The PIN from another machine: a keypad, since a phone's keyboard would cover the dialog.
let pinDigits = "";
function showPinDigits() { $("pin-entry").textContent = pinDigits ? "•".repeat(pinDigits.length) : "····"; }
function openPin(error) {
  pinDigits = "";
  showPinDigits();
  $("pin-error").textContent = error || "";
  if (!$("pin-dialog").open) $("pin-dialog").showModal();
}
$("pin-keys").append(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"].map((k) =>
  button(k, () => {
    if (k === "OK") unlock(pinDigits);
    else if (k === "⌫") pinDigits = pinDigits.slice(0, -1);
    else if (pinDigits.length < 8) pinDigits += k;
    showPinDigits();
  }, { data: { key: k }, class: k === "OK" ? "ok" : null, "aria-label": k === "⌫" ? "delete" : null })));
$("unlock").onclick = () => openPin();

async function unlock(entered) {
  if (!entered) return;
  let res, data = {};
  try {
    res = await fetch("/api/unlock", { method: "POST", body: "{}",
      headers: { "Content-Type": "application/json", "X-Zonkcam-PIN": entered } });
    data = await res.json().catch(() => ({}));
  } catch {
    $("pin-error").textContent = "The kiosk is not answering";
    return;
  }
  // 404: a server without /api/unlock; the PIN is then checked by the first action.
  if (res.ok || res.status === 404) {
    sessionStorage.setItem("pin", entered);
    $("pin-dialog").close();
    render(state);
    showMessage("Unlocked: this page can act", "info");
  } else {
    openPin(data.error || `refused (error ${res.status})`);
  }
}

// Live video costs bandwidth: on by default only on a kiosk with room for it.
let liveOn = setting("live", !spectator && matchMedia("(min-width: 1200px) and (min-height: 900px)").matches);
let frameLoading = false, frameCounter = 0;
function setLive(on) {
  liveOn = on;
  $("live-toggle").setAttribute("aria-pressed", String(on));
  $("view").hidden = !on;
  if (on) refreshFrame();
  else { $("frame").removeAttribute("src"); frameLoading = false; }
}
function refreshFrame() {
  if (!liveOn || frameLoading) return; // one frame in flight at a time: a slow link drops frames, not lags
  frameLoading = true;
  $("frame").src = `/api/frame.jpg?n=${++frameCounter}`;
}
$("frame").onload = $("frame").onerror = () => { frameLoading = false; };
$("live-toggle").onclick = () => { setLive(!liveOn); remember("live", liveOn); };

// Sounds are synthesised: no audio files to serve or cache.
let soundOn = setting("sound", !spectator);
let audio = null;
const SOUNDS = {
  zonk: [[220, 0.22], [165, 0.45]],
  spaz: [[660, 0.07], [330, 0.07], [660, 0.07], [330, 0.07], [660, 0.07]],
  hot_dice: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.3]],
  hit: [[880, 0.12], [0, 0.06], [880, 0.12]],
};
// Browsers start audio only after a tap on the page (unless the kiosk's browser is told
// otherwise): the context is made, or woken, by the first tap and by the sound switch.
function wakeAudio() {
  if (!soundOn) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch (err) { console.warn("no sound:", err); }
}
addEventListener("pointerdown", wakeAudio);

function play(kind) {
  const notes = SOUNDS[kind];
  if (!soundOn || !notes) return;
  wakeAudio();
  if (!audio) return;
  try {
    let t = audio.currentTime + 0.02;
    for (const [freq, dur] of notes) {
      if (freq) {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "square";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.12, t);
        gain.gain.exponentialRampToValueAtTime(0.001, t + dur);
        osc.connect(gain).connect(audio.destination);
        osc.start(t);
        osc.stop(t + dur);
      }
      t += dur;
    }
  } catch (err) { console.warn("no sound:", err); }
}
function setSound(on) {
  soundOn = on;
  $("sound").setAttribute("aria-pressed", String(on));
  $("sound").setAttribute("aria-label", on ? "sound on" : "sound off");
}
$("sound").onclick = () => {
  setSound(!soundOn);
  remember("sound", soundOn);
  wakeAudio();
};

function tickClock() {
  const c = $("clock");
  if (!clockDeadline) { c.textContent = ""; c.className = ""; return; }
  const left = (clockDeadline.at - Date.now()) / 1000;
  if (left > 0) {
    const s = Math.ceil(left);
    c.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
    c.className = left <= 10 ? "warn" : "";
  } else if (-left < clockDeadline.countdown) {
    c.textContent = `TIME! ${Math.ceil(clockDeadline.countdown + left)}`; // the visible countdown
    c.className = "urgent";
  } else {
    c.textContent = "TIME: loss of turn";
    c.className = "urgent";
  }
}
setInterval(tickClock, 250);

let bannerTimer = null;
function showBanner(b) {
  if (!b || !b.text) return;
  const banner = $("banner");
  banner.textContent = b.text;
  banner.className = b.kind || "";
  banner.hidden = false;
  play(b.kind);
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.hidden = true; }, 3000);
}

setLive(liveOn);
setSound(soundOn);
const events = new EventSource("/api/events");
// A page that has lost the server says so rather than show a stale game as current.
events.addEventListener("state", (e) => { document.body.dataset.stream = "live"; render(JSON.parse(e.data)); });
events.onerror = () => {
  if (document.body.dataset.stream === "lost") return;
  document.body.dataset.stream = "lost";
  showMessage("Lost the kiosk's server: reconnecting…", "error");
};
events.addEventListener("frame", refreshFrame);
events.addEventListener("banner", (e) => showBanner(JSON.parse(e.data)));
events.addEventListener("sound", (e) => play(JSON.parse(e.data).kind)); // hits: no banner of their own
fetch("/api/state", { headers: pinHeaders() }).then((r) => r.json()).then(render)
  .catch(() => showMessage("The kiosk is not answering", "error"));
pinFromAddress();
