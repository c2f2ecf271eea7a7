// The statistics page: renders GET /api/stats (every game in the database).
"use strict";
const $ = (id) => document.getElementById(id);
const pct = (x) => (x == null ? "–" : `${(100 * x).toFixed(1)}%`);
const num = (x) => (x == null ? "–" : String(x));

function row(values, cls) {
  const tr = document.createElement("tr");
  if (cls) tr.className = cls;
  for (const v of values) { const td = document.createElement("td"); td.textContent = v; tr.append(td); }
  return tr;
}

function verdict(f) {
  if (f.p == null) return "no throws";
  if (!f.enough) return "too few throws";
  return f.p < 0.01 ? "suspicious" : "fair";
}

const faceCells = (f) => [...f.faces, f.n, num(f.chi2), num(f.p), verdict(f)];

async function load() {
  const res = await fetch("/api/stats");
  const s = await res.json();
  $("games").textContent = `${s.games} game(s)`;
  $("players").tBodies[0].replaceChildren(...s.players.map((p) =>
    row([p.name, p.games, p.turns, p.zonks, pct(p.zonk_rate), num(p.average_turn), p.best_turn])));
  $("dice").tBodies[0].replaceChildren(...s.players.flatMap((p) => [
    ...p.dice.map((d) => row([p.name, d.color, ...faceCells(d)], verdict(d) === "suspicious" ? "bad" : "")),
    ...(p.dice.length > 1 ? [row([p.name, "all", ...faceCells(p.all_dice)], "total")] : []),
  ]));
  $("colors").tBodies[0].replaceChildren(...s.colors.map((c) =>
    row([c.color, ...faceCells(c)], verdict(c) === "suspicious" ? "bad" : "")));
  $("skipped").textContent = s.skipped.length ? `Not counted: ${s.skipped.join("; ")}` : "";
}
load();
