"""The Finger Football box on the desktop: sim.py and screen.py (`propctl sim football`),
describe.py (its events as sentences), reports.py (its buttons and the referee's reports in the
players' words: the sim, the web page and the referee at the box), box_referee.py (`propctl play
fingerfootball --port`: the referee at a box over USB), web.js, web.html and web.css (its part of
`propctl web`'s page) and web_box.py (`propctl web --box`: that page refereeing a box over USB)."""
