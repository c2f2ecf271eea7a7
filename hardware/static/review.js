// The review page: tap dice crops to select them, then a value button sets them all at once.
"use strict";

const grid = document.getElementById("grid");
const summary = document.getElementById("summary");
const message = document.getElementById("message");
const selected = new Map(); // "name/die" -> {name, die}

function key(item) { return `${item.name}/${item.die}`; }

function updateButtons() {
  for (const b of document.querySelectorAll("#values button")) b.disabled = selected.size === 0;
}

function tile(item) {
  const el = document.createElement("div");
  el.className = "die";
  el.dataset.key = key(item);
  el.setAttribute("role", "checkbox");
  el.setAttribute("aria-checked", "false");
  const img = document.createElement("img");
  img.src = item.crop;
  img.alt = `die ${item.die} of ${item.name}`;
  const read = document.createElement("div");
  read.className = "read";
  // a rejected die was read as no pip face at all (a logo, a star, a picture die)
  read.textContent = item.value !== null ? String(item.value) : item.rejected ? "not read" : "?";
  const conf = document.createElement("div");
  conf.className = "conf";
  conf.textContent = `${Math.round(item.confidence * 100)}%`;
  el.append(img, read, conf);
  el.addEventListener("click", () => {
    const on = !selected.has(key(item));
    if (on) selected.set(key(item), { name: item.name, die: item.die });
    else selected.delete(key(item));
    el.classList.toggle("selected", on);
    el.setAttribute("aria-checked", String(on));
    updateButtons();
  });
  return el;
}

async function load() {
  const response = await fetch("/api/review?limit=200");
  const data = await response.json();
  selected.clear();
  grid.replaceChildren(...data.items.map(tile));
  summary.textContent = `${data.total} dice to review · ${data.reviewed_frames} of ${data.frames} frames reviewed`;
  updateButtons();
}

// From another machine a correction needs the kiosk's PIN: the one entered on the kiosk page
// (same origin, so sessionStorage holds it), else asked for here once.
async function setValue(value, retried = false) {
  const items = [...selected.values()];
  const headers = { "Content-Type": "application/json" };
  const pin = sessionStorage.getItem("pin");
  if (pin) headers["X-Zonkcam-PIN"] = pin;
  const response = await fetch("/api/review/correct", {
    method: "POST", headers, body: JSON.stringify({ items, value }),
  });
  const data = await response.json().catch(() => ({}));
  if (response.status === 403 && !retried) {
    const entered = prompt("The PIN shown on the kiosk's screen:");
    if (entered) { sessionStorage.setItem("pin", entered.trim()); return setValue(value, true); }
  }
  message.textContent = response.ok ? "" : (data.error || `error ${response.status}`);
  await load();
}

// 1..6 set a face; 0 says "not a pip die" (it is taught as such)
for (let v = 1; v <= 7; v++) {
  const value = v % 7;
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = value ? String(value) : "not a die";
  b.dataset.value = String(value);
  b.addEventListener("click", () => setValue(value));
  document.getElementById("values").append(b);
}
document.getElementById("select-all").addEventListener("click", () => {
  for (const el of grid.querySelectorAll(".die:not(.selected)")) el.click();
});
document.getElementById("clear").addEventListener("click", () => {
  for (const el of grid.querySelectorAll(".die.selected")) el.click();
});
load().catch((err) => { message.textContent = String(err); });
