// The ghost clock's part of `propctl web`'s page (the common page, web/static/web.js, imports it):
// its face with the hand where the board's stepper put it, its START button (tap: a round; hold:
// the emergency stop), its light and bell. The markup is web.html beside this file.
export default function clockView(page) {
  const { $ } = page;
  return {
    quiet: [],
    anchor: () => $("start"),
    build() {
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
      page.holdable($("start"), "button");
    },
    draw(r) {
      $("hand").setAttribute("transform", "rotate(" + (r.hand_mdeg / 1000) + ")");
      page.setLight("clock-led", r.outputs.led);
      page.setLight("clock-piezo", r.outputs["piezo.duty"] > 0);
    },
  };
}
