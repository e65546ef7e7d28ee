// The page: loads the pinned MicroPython WebAssembly port, writes firmware/lib and the virtual
// board into its filesystem, builds one prop (vboard/web_bridge.py) and runs it each animation
// frame; draws what the board's outputs show and plays the piezo's tones through Web Audio.
// Every word the page shows about the game comes from the bridge (propctl/describe.py's sentences,
// propctl/props/football/reports.py's buttons and reports): the same as at the terminal.
import { loadMicroPython } from "/mp/micropython.mjs";

const params = new URLSearchParams(location.search);
const PROP = ["clock", "fusebox", "football"].includes(params.get("prop")) ? params.get("prop") : "clock";
const PROP_NAMES = { clock: "ghost clock", fusebox: "fuse box", football: "Finger Football box" };
const SHOW_PLAN = params.get("show_plan") === "1";
const SEED_MAX = 4294967295;  // the seed setting's range, as `propctl plan --seed N` takes it
const LONGEST_FRAME_MS = 100;  // a tab in the background: do not jump minutes of board time at once
const $ = (id) => document.getElementById(id);
// `propctl web --lan`: the address carries a key, without which the server takes no report
const KEY = params.get("key");
const keyed = (path) => (KEY ? path + (path.includes("?") ? "&" : "?") + "key=" + encodeURIComponent(KEY) : path);

let speed = Math.max(1, parseInt(params.get("speed") || "1", 10) || 1);
let prop = null;
let boardMs = 0;

// &seed=N: a whole number 0..4294967295 (the prop's seed setting), else null
function fixedSeed() {
  if (!params.has("seed")) return null;
  const text = params.get("seed").trim();
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > SEED_MAX) {
    throw new Error("&seed=" + text + " is not a seed: a whole number 0.." + SEED_MAX);
  }
  return text;
}

// --- the event log (window.propEvents: the same records, for tests and curious people) ---
window.propEvents = [];
const QUIET = { football: ["button"] };  // the buttons' own presses: the screen shows what they did
function logEvent(e) {
  window.propEvents.push(e);
  if ((QUIET[PROP] || []).includes(e.event)) return;
  const li = document.createElement("li");
  li.dataset.event = e.event;
  // the raw fields on hover, for the curious
  li.title = e.event + " " + Object.keys(e).filter((k) => !["event", "t", "text"].includes(k))
    .map((k) => k + "=" + (typeof e[k] === "object" ? JSON.stringify(e[k]) : e[k])).join(" ");
  const t = document.createElement("span");
  t.className = "t";
  t.textContent = (e.t / 1000).toFixed(1) + " s";
  li.append(t, " ", e.text);
  $("log").appendChild(li);
  $("log").scrollTop = $("log").scrollHeight;
}

// A command over the link (football's reports, the fuse box's game); a refusal is said beside the
// control that sent it (`near`; else beside the prop's turn line) and goes to the log.
function command(name, args, near) {
  startAudio();
  if (BOX.on) return boxReport(args, near);
  const answer = JSON.parse(prop.command(name, JSON.stringify(args)));
  if (answer.error) refuse(answer.text, near, { command: name, error: answer.error });
  else clearRefusal();
  return answer;
}

// The refusal, right after the control's row, in a live region a screen reader announces.
function refuse(text, near, fields) {
  logEvent(Object.assign({ event: "refused", t: boardMs, text }, fields || {}));
  let box = $("refusal");
  if (!box) {
    box = document.createElement("p");
    box.id = "refusal";
    box.className = "refusal";
    box.setAttribute("role", "alert");
    box.setAttribute("aria-live", "assertive");
  }
  const anchor = near || $(PROP === "football" ? "referee" : PROP === "fusebox" ? "turn" : "start");
  anchor.after(box);
  box.textContent = text;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

function clearRefusal() {
  const box = $("refusal");
  if (box) box.hidden = true;
}

// --- sound: the piezo's PWM as a square wave (frequency from .freq, on while duty > 0) ---
const audio = { ctx: null, osc: null, gain: null, tones: 0, freq: 0, on: false, notes: [] };
window.propAudio = audio;
function startAudio() {
  if (audio.ctx) { audio.ctx.resume(); return; }
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio.ctx = new Ctx();
  audio.osc = audio.ctx.createOscillator();
  audio.osc.type = "square";
  audio.gain = audio.ctx.createGain();
  audio.gain.gain.value = 0;
  audio.osc.connect(audio.gain).connect(audio.ctx.destination);
  audio.osc.start();
}
function playTones(tones, frameStartMs) {
  if (!audio.ctx) return;
  // board times of this frame, replayed just behind real time
  const base = audio.ctx.currentTime + 0.05;
  for (const [t, freq, duty] of tones) {
    const at = base + Math.max(0, t - frameStartMs) / 1000 / speed;
    if (freq > 0) audio.osc.frequency.setValueAtTime(freq, at);
    if (duty !== -2) {  // -2: only the frequency changed
      audio.on = duty > 0 && !$("mute").checked;
      audio.gain.gain.setValueAtTime(audio.on ? 0.06 : 0, at);
    }
    if (audio.on && (freq !== audio.freq || duty !== -2)) {
      audio.tones += 1;
      audio.notes.push(freq);  // what was sent to the speaker, for tests and the curious
    }
    audio.freq = freq;
  }
}

// --- the props' faces ---
function setLight(id, on) { const el = $(id); if (el) el.classList.toggle("on", !!on); }

function drawClock(r) {
  $("hand").setAttribute("transform", "rotate(" + (r.hand_mdeg / 1000) + ")");
  setLight("clock-led", r.outputs.led);
  setLight("clock-piezo", r.outputs["piezo.duty"] > 0);
}

// --- the fuse box and the Finger weg! game (players and windows from 1, as on the box) ---
const fb = { chosen: null, away: new Set(), awaiting: null, box: null, card: null, spent: false };

// The household's memory (propctl web's POST /played, the play history `propctl sim fusebox`
// keeps): a new game, and a card once its round ended, so the next evening deals other cards.
async function remember(report) {
  try {
    const answer = await fetch(keyed("/played"), { method: "POST", body: JSON.stringify(report),
      headers: { "Content-Type": "application/json" } });
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    for (const text of (await answer.json()).said) logEvent({ event: "history", t: boardMs, text });
  } catch (err) {
    logEvent({ event: "history", t: boardMs, text: "the play history did not record this: " + err.message });
  }
}

// At the same moments as the terminal: a card is spent when the bolt shows or the rules end its round.
function noteCard(e) {
  if (e.event === "card") {
    fb.card = e.id || null;
    fb.spent = false;
  } else if ((e.event === "fuse_blown" || (e.event === "scored" && e.round_over === true)) &&
             fb.card && !fb.spent) {
    fb.spent = true;
    remember({ played: fb.card });
    // the card's solution note, as the terminal sim says it after the round
    const note = (window.cardNotes || {})[fb.card];
    if (note) {
      logEvent({ event: "solution", t: boardMs, text: "solution " + fb.card + ": " + note });
      $("card-note").textContent = "Solution: " + note;
      $("card-note").hidden = false;
    }
  }
  if (e.event === "card") $("card-note").hidden = true;
}

function playersText(list) {
  if (list.length === 1) return "player " + list[0];
  return "players " + list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}

function drawFusebox(r) {
  const box = r.box;
  fb.box = box;
  if (r.card) {
    $("card-id").textContent = r.card.id;
    $("card-category").textContent = r.card.category;
    $("card-text").textContent = r.card.text;
  }
  document.querySelectorAll("#windows button").forEach((b, i) => {
    const open = r.open.includes(i + 1);
    const bolt = open && r.card && r.card.bolt === i + 1;
    b.classList.toggle("open", open);
    b.classList.toggle("bolt", !!bolt);
    b.classList.toggle("chosen", fb.chosen === i + 1);
    const statement = r.card ? r.card.statements[i] : "";
    const text = (i + 1) + (statement ? "\n" + statement : "") + (bolt ? "\n⚡ the bolt" : "");
    if (b.textContent !== text) b.textContent = text;
  });
  for (const name of ["led_red", "led_green", "relay"]) setLight("fb-" + name, r.outputs[name]);
  setLight("fb-piezo", r.outputs["piezo.duty"] > 0);
  for (const e of r.events) {
    noteCard(e);
    if (e.event === "fuse_blown") $("fuse").classList.add("blown");
    if (e.event === "card") $("fuse").classList.remove("blown");
    $("fuse").textContent = $("fuse").classList.contains("blown") ? "fuse BLOWN" : "fuse intact";
  }
  $("bolt-button").hidden = box.mode !== "manual";
  // the discs of a window just opened go to the box once it has seen the window open
  if (fb.awaiting && box.to_report.includes(fb.awaiting.window)) {
    const away = fb.awaiting.away;
    fb.awaiting = null;
    command("report_choices", { away });
  }
  drawGame(box);
}

function drawGame(box) {
  const game = box.game;
  const key = JSON.stringify([game, box.pending, box.open, box.card, fb.chosen, [...fb.away], !!fb.awaiting]);
  if (key === drawGame.shown) return;
  drawGame.shown = key;
  if (fb.chosen !== null && !(game && game.round_active && game.chooser)) fb.chosen = null;
  const scores = $("scores");
  scores.replaceChildren();
  if (game) {
    game.scores.forEach((points, i) => {
      const n = i + 1;
      const li = document.createElement("li");
      const notes = [];
      if (game.starter === n) notes.push("start card");
      if (game.chooser === n) notes.push("chooses");
      if (game.round_active && !game.in_round.includes(n)) notes.push("out this round");
      li.id = "score" + n;
      li.className = game.over && game.winners.includes(n) ? "winner"
        : game.chooser === n ? "chooser" : notes.includes("out this round") ? "out" : "";
      li.textContent = "Player " + n + ": " + points + (points === 1 ? " point" : " points") +
        (notes.length ? " (" + notes.join(", ") + ")" : "");
      scores.appendChild(li);
    });
  }
  $("turn").textContent = turnText(box);
  const discs = $("discs");
  discs.hidden = fb.chosen === null;
  if (fb.chosen !== null) {
    $("discs-title").textContent = "Window " + fb.chosen + ": each player lays a disc. Tap those " +
      "who take their fingers away (bolt side up); player " + game.chooser + " chose it and leaves them on.";
    const buttons = $("disc-buttons");
    buttons.replaceChildren();
    for (const n of game.in_round.filter((p) => p !== game.chooser)) {
      const b = document.createElement("button");
      b.id = "disc" + n;
      const away = fb.away.has(n);
      b.classList.toggle("away", away);
      b.setAttribute("aria-pressed", String(away));
      b.textContent = "Player " + n + (away ? ": fingers away ⚡" : ": fingers on");
      b.addEventListener("click", () => {
        if (fb.away.has(n)) fb.away.delete(n); else fb.away.add(n);
        drawGame.shown = null;
      });
      buttons.appendChild(b);
    }
    $("open-window").textContent = "Open window " + fb.chosen;
  }
}

function turnText(box) {
  const game = box.game;
  if (!game) return "Choose how many play and press New game; or just open windows.";
  if (game.over) {
    const best = Math.max(...game.scores);
    return "GAME OVER: " + playersText(game.winners) + (game.winners.length > 1 ? " win" : " wins") +
      " with " + best + " points. New game to play again.";
  }
  if (fb.awaiting) return "Window " + fb.awaiting.window + " opens…";
  if (game.round_active) {
    if (fb.chosen !== null) return "Player " + game.chooser + " chose window " + fb.chosen + ".";
    return "Player " + game.chooser + " chooses a statement: tap its window.";
  }
  if (box.pending) return "Close every window: the card goes into the box once all are shut.";
  return "Player " + game.starter + " holds the start card: close every window, then NEXT card.";
}

function windowTapped(i) {
  const box = fb.box;
  const game = box && box.game;
  if (game && game.round_active && !fb.awaiting) {
    // a round of the game: the chooser names a closed window; it opens after the discs
    if (box.open.includes(i)) return;
    fb.chosen = fb.chosen === i ? null : i;
    fb.away.clear();
    drawGame.shown = null;
    return;
  }
  input("window", i);
}

function openChosen() {
  if (fb.chosen === null) return;
  fb.awaiting = { window: fb.chosen, away: [...fb.away].sort((a, b) => a - b) };
  input("window", fb.chosen);
  fb.chosen = null;
  fb.away.clear();
  drawGame.shown = null;
}

// --- the football box: its buttons say what they do now; the reports as pickers ---
let shownReports = "";
let pickPrefix = [];   // words of an announced play chosen so far

function drawReports(entries) {
  const key = JSON.stringify(entries);
  if (key === shownReports) return;
  shownReports = key;
  const box = $("actions");
  box.replaceChildren();
  $("reports").hidden = entries.length === 0;
  entries.forEach((entry, index) => {
    if (entry.needs && entry.needs[0] === "yards") {
      const [, action, lo, hi] = entry.needs;
      const row = document.createElement("div");
      row.className = "yards";
      const label = document.createElement("label");
      const yards = document.createElement("input");
      Object.assign(yards, { type: "number", min: lo, max: hi, value: Math.min(hi, Math.max(lo, 35)),
        inputMode: "numeric", id: "yards-" + action });
      label.append(entry.label + " ", yards);
      // whose goal the number counts from: the terminal's "own 1 to opp 1"
      const from = document.createElement("small");
      from.className = "yards-from";
      from.textContent = "counted from the goal line of the team that gets the ball: " + lo +
        " = its own " + lo + ", 50 = midfield, " + hi + " = the opponent's " + (100 - hi);
      const b = document.createElement("button");
      b.dataset.report = action;
      b.textContent = "Report";
      b.addEventListener("click", () => {
        const value = Number(yards.value);
        if (!(Number.isInteger(value) && value >= lo && value <= hi)) {
          refuse("the yard line is a whole number " + lo + " to " + hi + " (" + yards.value + " is not)", row);
          yards.setAttribute("aria-invalid", "true");
          return;
        }
        yards.removeAttribute("aria-invalid");
        command("report", { action, yards: value }, row);
      });
      yards.setAttribute("aria-describedby", "refusal");
      row.append(label, b, from);
      box.append(row);
      return;
    }
    const b = document.createElement("button");
    b.textContent = entry.label;
    b.dataset.index = index;
    if (entry.report) {
      b.dataset.report = entry.report.action;
      if (entry.report.pick) b.dataset.pick = entry.report.pick;
      b.addEventListener("click", () => { pickPrefix = []; command("report", entry.report); });
    } else {  // more words to choose (an announced play: its zone first)
      b.dataset.pick = entry.needs[2].join(" ") + "...";
      b.addEventListener("click", () => { pickPrefix = entry.needs[2]; shownReports = ""; boxLook(); });
    }
    box.append(b);
  });
  if (pickPrefix.length) {
    const back = document.createElement("button");
    back.textContent = "Back";
    back.id = "pick-back";
    back.addEventListener("click", () => { pickPrefix = []; shownReports = ""; boxLook(); });
    box.append(back);
  }
}

function drawFootball(r) {
  $("oled").textContent = r.screen.join("\n");
  $("referee").textContent = r.message;
  document.querySelectorAll("#football [data-input]").forEach((b) => {
    const role = r.roles[b.dataset.input];
    b.disabled = !role && !b.classList.contains("held");
    b.querySelector("small").textContent = role || "not now";
  });
  const entries = pickPrefix.length ? JSON.parse(prop.reports(JSON.stringify(pickPrefix))) : r.reports;
  if (pickPrefix.length && !entries.length) pickPrefix = [];
  drawReports(entries);
  $("play-note").textContent = r.play_note || "";
  const leds = $("football-leds");
  for (const name of Object.keys(r.outputs).filter((n) => n.startsWith("led"))) {
    let el = $("ff-" + name);
    if (!el) {
      el = document.createElement("span");
      el.id = "ff-" + name;
      el.className = "light";
      el.textContent = name === "led" ? "board light" : name.slice(4).replace(/(\d)/, " $1");
      leds.appendChild(el);
    }
    el.classList.toggle("on", !!r.outputs[name]);
  }
}
const DRAW = { clock: drawClock, fusebox: drawFusebox, football: drawFootball };

function frame(ms) {
  const start = boardMs;
  const r = JSON.parse(prop.frame(ms));
  boardMs = r.t;
  for (const e of r.events) logEvent(e);
  playTones(r.tones, start);
  DRAW[PROP](r);
  window.propFrame = r;
}

function input(what, value) {
  startAudio();  // browsers allow sound only after a person's gesture
  prop.input(what, value);
}

// A button held down as long as the finger or mouse is on it (the clock's START, football's).
function holdable(button, what) {
  let held = false;
  const down = (ev) => {
    ev.preventDefault();
    if (!held && !button.disabled) { held = true; button.classList.add("held"); input(what, 1); }
  };
  const up = () => { if (held) { held = false; button.classList.remove("held"); input(what, 0); } };
  button.addEventListener("pointerdown", down);
  button.addEventListener("pointerup", up);
  button.addEventListener("pointerleave", up);
  button.addEventListener("pointercancel", up);
}

function buildControls() {
  if (PROP === "clock") {
    const svg = $("numerals");
    for (let h = 1; h <= 12; h++) {
      const a = h * Math.PI / 6;
      const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
      t.setAttribute("x", (84 * Math.sin(a)).toFixed(1));
      t.setAttribute("y", (-84 * Math.cos(a)).toFixed(1));
      t.setAttribute("class", "numeral");
      t.textContent = h;
      svg.appendChild(t);
    }
    holdable($("start"), "button");
  }
  if (PROP === "fusebox") {
    const box = $("windows");
    for (let i = 1; i <= 8; i++) {
      const b = document.createElement("button");
      b.id = "window" + i;
      b.textContent = String(i);
      b.addEventListener("click", () => windowTapped(i));
      box.appendChild(b);
    }
    const players = $("players");
    for (let n = 2; n <= 8; n++) players.add(new Option(String(n)));
    players.value = "4";
    $("new-game").addEventListener("click", () => {
      fb.chosen = null;
      fb.awaiting = null;
      fb.away.clear();
      drawGame.shown = null;
      const answer = command("new_game", { players: parseInt(players.value, 10) });
      if (answer.ok) remember({ new_game: answer.ok.players });
    });
    $("open-window").addEventListener("click", openChosen);
    $("cancel-window").addEventListener("click", () => { fb.chosen = null; fb.away.clear(); drawGame.shown = null; });
    $("close-windows").addEventListener("click", () => input("close_windows", 0));
    document.querySelectorAll("#fusebox button[data-input]").forEach((b) => {
      b.addEventListener("click", () => input(b.dataset.input, 1));
    });
  }
  if (PROP === "football") {
    document.querySelectorAll("#football button[data-input]").forEach((b) => holdable(b, b.dataset.input));
  }
}

// --- `propctl web --box PORT`: the page referees a football box on the desktop's serial port ---
// The server holds the link (propctl/web/box.py); the page long-polls GET /box/view for the box's
// events and state, and POSTs the reports the box's buttons cannot make to /box/report.
const BOX = { on: false, seq: -1, shown: 0 };

function boxUrl(since) {
  return "/box/view?since=" + since + "&prefix=" + encodeURIComponent(JSON.stringify(pickPrefix));
}

function drawBox(v) {
  for (const e of v.events) {
    if (e.seq > BOX.shown) { BOX.shown = e.seq; logEvent(e); }
  }
  if (v.lost) {
    $("status").textContent = "the link to the box ended: " + v.lost;
    window.propError = v.lost;
    return false;
  }
  $("oled").textContent = v.board.join("\n");
  $("referee").textContent = v.message;
  document.querySelectorAll("#football [data-input]").forEach((b) => {
    b.disabled = true;  // the box's own buttons do this: the page says what each does now
    b.querySelector("small").textContent = v.roles[b.dataset.input] || "not now";
  });
  if (pickPrefix.length && !v.prefix.length) pickPrefix = [];  // the box moved on
  drawReports(v.reports);
  $("play-note").textContent = v.play_note || "";
  window.propFrame = v;
  return true;
}

// Look again now (after a report or a pick's words), without waiting for the box's next event.
async function boxLook() {
  if (!BOX.on) return;
  const v = await (await fetch(keyed(boxUrl(-1)))).json();
  drawBox(v);
}

async function boxReport(args, near) {
  const answer = await (await fetch(keyed("/box/report"), { method: "POST", body: JSON.stringify(args),
    headers: { "Content-Type": "application/json" } })).json();
  if (answer.error) refuse(answer.text || answer.error, near, { command: "report", error: answer.error });
  else clearRefusal();
  await boxLook();
  return answer;
}

async function boxMain(first) {
  BOX.on = true;
  $("nav-football").classList.add("current");
  $("football").hidden = false;
  $("speed").closest("label").style.display = "none";  // the box runs in its own time
  document.querySelector("h1").textContent = "Game props: the referee of your football box";
  $("oled").classList.add("scoreboard");  // the scoreboard's lines, not the box's 16-column OLED
  document.title = "the football box on " + first.port;
  $("status").textContent = "the referee of the football box on " + first.port + ": its buttons roll, " +
    "kick and count; here you report what they cannot say";
  $("reports").querySelector("h3").textContent = "Report the play";
  drawBox(first);
  window.propReady = true;
  let since = first.seq;
  for (;;) {
    let v;
    try {
      v = await (await fetch(keyed(boxUrl(since)))).json();
    } catch (err) {  // the server stopped or a phone lost its Wi-Fi for a moment: try again
      $("status").textContent = "no answer from propctl web (" + err.message + "); trying again";
      await new Promise((done) => setTimeout(done, 2000));
      continue;
    }
    if (!drawBox(v)) return;
    since = v.seq;
  }
}

async function main() {
  if (KEY) document.querySelectorAll("nav a").forEach((a) => { a.href = keyed(a.getAttribute("href")); });
  if (PROP === "football") {
    const boxed = await fetch(keyed("/box/view?since=-1")).then((r) => (r.ok ? r.json() : null), () => null);
    if (boxed) return boxMain(boxed);
  }
  $("nav-" + PROP).classList.add("current");
  $(PROP).hidden = false;
  document.title = PROP_NAMES[PROP] + " on a virtual board";
  const sel = $("speed");
  if (![...sel.options].some((o) => o.value === String(speed))) sel.add(new Option(String(speed)));
  sel.value = String(speed);
  sel.addEventListener("change", () => { speed = parseInt(sel.value, 10); });
  const seed = fixedSeed();

  const files = await (await fetch("/files.json")).json();
  window.cardNotes = files.notes || {};
  const mp = await loadMicroPython({ url: "/mp/micropython.wasm",
    stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
  for (const [path, text] of Object.entries(files.text)) {
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, text);
  }
  for (const [path, b64] of Object.entries(files.binary)) {
    mp.FS.writeFile(path, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  }
  mp.runPython("import sys\nsys.path.clear()\nsys.path.extend(" + JSON.stringify(files.path) + ")");
  const bridge = mp.pyimport("web_bridge");
  // no os.urandom in the WebAssembly port: without &seed the rounds' seeds come from the browser's
  const entropy = crypto.getRandomValues(new Uint32Array(1))[0] >>> 2;
  prop = bridge.Prop(PROP, files.pack, entropy, seed === null ? -1 : seed, SHOW_PLAN);
  buildControls();
  $("status").textContent = "the " + PROP_NAMES[PROP] + "'s firmware runs here (MicroPython " +
    bridge.version() + ", WebAssembly)" + (seed === null ? "" : ", seed " + seed);
  window.propReady = true;

  let last = performance.now();
  const loop = (now) => {
    const ms = Math.round(Math.min(now - last, LONGEST_FRAME_MS) * speed);
    last = now;
    try {
      frame(ms);
    } catch (err) {
      $("status").textContent = "the firmware stopped: " + err;
      window.propError = String(err);
      return;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

main().catch((err) => {
  $("status").textContent = "could not start: " + err.message;
  window.propError = String(err);
});
