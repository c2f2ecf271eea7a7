// The review page: tap dice crops to select them, then one button sets them all at once: a face,
// "not a die", "right" (the read is right), "bad crop" or "skip". The queue comes likely misreads
// first, table junk last; "in frame" shows the whole frame, where a tap adds a die it missed.
"use strict";

const PAGE = 120;
const summary = document.getElementById("summary");
const message = document.getElementById("message");
const more = document.getElementById("more");
const selected = new Map(); // "name/die" -> item
let shown = 0;
let total = 0;

function key(item) { return `${item.name}/${item.die}`; }
function grid(group) { return document.querySelector(`section[data-group="${group}"] .grid`); }

function updateButtons() {
  for (const b of document.querySelectorAll("#actions button")) {
    // "right" confirms a read: not for a die without one
    b.disabled = selected.size === 0
      || (b.dataset.action === "confirm" && [...selected.values()].some((i) => i.value === null));
  }
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
  img.loading = "lazy";
  const words = document.createElement("div");
  words.className = "words";
  words.textContent = item.words;
  const inFrame = document.createElement("button");
  inFrame.type = "button";
  inFrame.className = "in-frame";
  inFrame.textContent = "frame";
  inFrame.title = "the whole frame: add a die it missed";
  inFrame.addEventListener("click", (e) => { e.stopPropagation(); openFrame(item.name); });
  el.append(img, words, inFrame);
  el.addEventListener("click", () => toggle(el, item));
  return el;
}

function toggle(el, item) {
  const on = !selected.has(key(item));
  if (on) selected.set(key(item), item);
  else selected.delete(key(item));
  el.classList.toggle("selected", on);
  el.setAttribute("aria-checked", String(on));
  updateButtons();
}

function showCounts(data) {
  total = data.total;
  summary.textContent = total === 0 ? "all done"
    : `${total} left to look at · ${data.frames} frames`;
  for (const section of document.querySelectorAll("section[data-group]")) {
    section.hidden = !data.groups[section.dataset.group];
  }
  document.getElementById("done").hidden = total !== 0;
}

async function fetchPage(offset) {
  const response = await fetch(`/api/review?offset=${offset}&limit=${PAGE}`);
  if (!response.ok) throw new Error(`the queue: error ${response.status}`);
  return response.json();
}

async function load() {
  const data = await fetchPage(0);
  selected.clear();
  for (const section of document.querySelectorAll("section[data-group]")) grid(section.dataset.group).replaceChildren();
  append(data);
}

function append(data) {
  for (const item of data.items) grid(item.group).append(tile(item));
  shown = data.offset + data.items.length;
  showCounts(data);
  more.hidden = shown >= total;
  more.textContent = `show ${Math.min(PAGE, total - shown)} more (${total - shown} not shown)`;
  updateButtons();
}

more.addEventListener("click", async () => { append(await fetchPage(shown)); });

// From another machine an action needs the kiosk's PIN: the one entered on the kiosk page
// (same origin, so sessionStorage holds it), else asked for here once.
async function post(url, body, retried = false) {
  const headers = { "Content-Type": "application/json" };
  const pin = sessionStorage.getItem("pin");
  if (pin) headers["X-Zonkcam-PIN"] = pin;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (response.status === 403 && !retried) {
    const entered = prompt("The PIN shown on the kiosk's screen:");
    if (entered) { sessionStorage.setItem("pin", entered.trim()); return post(url, body, true); }
  }
  message.textContent = response.ok ? "" : (data.error || `error ${response.status}`);
  return response.ok ? data : null;
}

async function act(body) {
  const items = [...selected.values()].map((i) => ({ name: i.name, die: i.die }));
  await post("/api/review/correct", { items, ...body });
  await load();
}

// 1..6 set a face; 0 says "not a pip die" (taught as such); then the dismissals
const ACTIONS = [
  ...[1, 2, 3, 4, 5, 6].map((v) => [String(v), { value: v }]),
  ["not a die", { value: 0 }],
  ["right", { action: "confirm" }, "the read is right"],
  ["bad crop", { action: "bad_crop" }, "a die cut off, or several dice: never trained on"],
  ["skip", { action: "skip" }, "leave it as read, out of the queue"],
];
for (const [label, body, title] of ACTIONS) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if ("value" in body) b.dataset.value = String(body.value);
  else { b.dataset.action = body.action; b.title = title; }
  if (body.action === "bad_crop" || body.action === "skip") b.classList.add("dismiss");
  b.addEventListener("click", () => act(body));
  document.getElementById("actions").append(b);
}
document.getElementById("clear").addEventListener("click", () => {
  for (const el of document.querySelectorAll(".die.selected")) el.click();
});
for (const button of document.querySelectorAll(".select-group")) {
  button.addEventListener("click", () => {
    for (const el of button.closest("section").querySelectorAll(".die:not(.selected)")) el.click();
  });
}

// The whole frame: its dice boxed; a tap elsewhere adds the die the recognizer missed there.
const frameView = document.getElementById("frame-view");
const frameImg = document.getElementById("frame-img");
const frameBox = document.getElementById("frame-box");
let frameName = null;

async function drawBoxes() {
  const response = await fetch(`/api/review/frame/${encodeURIComponent(frameName)}/dice`);
  const data = await response.json();
  for (const old of frameBox.querySelectorAll(".box")) old.remove();
  const [w, h] = data.size;
  for (const d of data.dice) {
    const [x1, y1, x2, y2] = d.box;
    const el = document.createElement("div");
    el.className = "box" + (d.status === "unreadable" && d.value === null ? " missed" : "");
    Object.assign(el.style, { left: `${100 * x1 / w}%`, top: `${100 * y1 / h}%`,
                              width: `${100 * (x2 - x1) / w}%`, height: `${100 * (y2 - y1) / h}%` });
    frameBox.append(el);
  }
}

async function openFrame(name) {
  frameName = name;
  frameImg.src = `/api/review/frame/${encodeURIComponent(name)}`;
  frameView.hidden = false;
  await drawBoxes();
}

frameImg.addEventListener("click", async (e) => {
  const rect = frameImg.getBoundingClientRect();
  const x = (e.clientX - rect.left) * frameImg.naturalWidth / rect.width;
  const y = (e.clientY - rect.top) * frameImg.naturalHeight / rect.height;
  if (await post("/api/review/add", { name: frameName, x, y })) {
    document.getElementById("frame-hint").textContent = "Added: set its face in “Check these first”.";
    await drawBoxes();
  }
});
document.getElementById("frame-close").addEventListener("click", () => {
  frameView.hidden = true;
  load().catch((err) => { message.textContent = String(err); });
});

load().catch((err) => { message.textContent = String(err); });
