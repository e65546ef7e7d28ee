// The football box's part of `propctl web`'s page (the common page, web/static/web.js, imports it):
// its OLED, its four buttons saying what each does now, and the reports its buttons cannot make as
// pickers (the players' words: propctl/props/football/reports.py through the bridge). With
// `propctl web --box PORT` it takes the page over: no firmware here, the page referees the box on
// the desktop's serial port through the server (web_box.py beside this file). Markup: web.html.
let page = null;
let $ = null;

export default function footballView(thePage) {
  page = thePage;
  $ = page.$;
  return {
    quiet: ["button"],  // the buttons' own presses: the screen shows what they did
    anchor: () => $("referee"),
    build() {
      document.querySelectorAll("#football button[data-input]").forEach((b) => page.holdable(b, b.dataset.input));
    },
    draw: drawFootball,
    takeover,
  };
}

// A report: to the box with --box, else to the firmware here.
function command(name, args, near) {
  if (BOX.on) return boxReport(args, near);
  return page.command(name, args, near);
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
          page.refuse("the yard line is a whole number " + lo + " to " + hi + " (" + yards.value + " is not)", row);
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
  const entries = pickPrefix.length ? JSON.parse(page.prop.reports(JSON.stringify(pickPrefix))) : r.reports;
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
// --- `propctl web --box PORT`: the page referees a football box on the desktop's serial port ---
// The server holds the link (web_box.py beside this file); the page long-polls GET /box/view for the box's
// events and state, and POSTs the reports the box's buttons cannot make to /box/report.
const BOX = { on: false, seq: -1, shown: 0 };

function boxUrl(since) {
  return "/box/view?since=" + since + "&prefix=" + encodeURIComponent(JSON.stringify(pickPrefix));
}

function drawBox(v) {
  for (const e of v.events) {
    if (e.seq > BOX.shown) { BOX.shown = e.seq; page.logEvent(e); }
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
  const v = await (await fetch(page.keyed(boxUrl(-1)))).json();
  drawBox(v);
}

async function boxReport(args, near) {
  const answer = await (await fetch(page.keyed("/box/report"), { method: "POST", body: JSON.stringify(args),
    headers: { "Content-Type": "application/json" } })).json();
  if (answer.error) page.refuse(answer.text || answer.error, near, { command: "report", error: answer.error });
  else page.clearRefusal();
  await boxLook();
  return answer;
}

async function boxMain(first) {
  BOX.on = true;
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
      v = await (await fetch(page.keyed(boxUrl(since)))).json();
    } catch (err) {  // the server stopped or a phone lost its Wi-Fi for a moment: try again
      $("status").textContent = "no answer from propctl web (" + err.message + "); trying again";
      await new Promise((done) => setTimeout(done, 2000));
      continue;
    }
    if (!drawBox(v)) return;
    since = v.seq;
  }
}

// `propctl web --box`: when the server referees a box (GET /box/view answers), the page is its.
async function takeover() {
  const boxed = await fetch(page.keyed("/box/view?since=-1")).then((r) => (r.ok ? r.json() : null), () => null);
  if (!boxed) return false;
  await boxMain(boxed);  // until the link to the box ends
  return true;
}
