// The league admin's forms (admin.html): each posts JSON to the API, which checks the session.
// A file of its own, not inline script, so that the page's Content-Security-Policy can forbid
// every script but the server's own.
const val = id => document.getElementById(id).value;
const lines = id => val(id).split(",").map(s => s.trim()).filter(s => s);

function presentTeams() {  // "Team A: Ann, Bob" a line -> {"Team A": ["Ann", "Bob"]}
  const out = {};
  for (const line of val("present").split("\n")) {
    const [team, players] = line.split(":");
    if (team && players) out[team.trim()] = players.split(",").map(s => s.trim()).filter(s => s);
  }
  return out;
}

// Each form's id -> the API path and the JSON it posts.
const FORMS = {
  login: () => ["/api/login", { password: val("pw") }],
  "team-form": () => ["/api/teams", { name: val("team"), players: lines("roster") }],
  "season-form": () => ["/api/seasons", { name: val("season") }],
  "night-form": () => ["/api/nights", { season: +val("nseason"), name: val("night") }],
  "match-form": () => ["/api/matches", { night: +val("mnight"), present: presentTeams(), tables: lines("mtables") }],
  "round2-form": () => [`/api/matches/${encodeURIComponent(val("r2match"))}/round2`, { table: val("r2table") }],
  "move-form": () => [`/api/games/${encodeURIComponent(val("mgame"))}/table`, { table: val("mtable") }],
};

for (const [id, request] of Object.entries(FORMS)) {
  document.getElementById(id).addEventListener("submit", async event => {
    event.preventDefault();
    const [path, body] = request();
    const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify(body) });
    document.getElementById("out").textContent = `${answer.status} ${await answer.text()}`;
  });
}
