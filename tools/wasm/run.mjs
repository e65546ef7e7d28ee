#!/usr/bin/env node
// Run a MicroPython script on the WebAssembly port (wasm32) under node, like the unix port.
//
// Usage: MICROPYPATH=dir:dir node tools/wasm/run.mjs [-X heapsize=N] SCRIPT [ARGS...]
//
// The wasm port has its own in-memory filesystem, so before the script runs this copies
// into it, at the same absolute paths: every MICROPYPATH folder, the script, and every
// argument that names a file or folder on the host, and the files or folders listed in
// $MICROPYTHON_WASM_FILES (colon-separated; data a script opens). The working folder is the same as
// the host's. stdin, stdout and stderr are the process's own (stdin blocks like a pipe
// does), `sys.exit(n)` exits with n, an uncaught exception prints its traceback to
// stderr and exits 1. Files the script writes stay in memory and are lost at exit.
// The heap grows on demand (`-X heapsize` only sets the starting size), so heap-size
// figures belong to the unix port; small ints are 31 bits as on a board. The port's own
// asyncio runs on the JavaScript event loop (no asyncio.run()): tools/wasm/lib/asyncio.py,
// a one-task loop, stands in for it, ahead of the built-in modules.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

// Folders never copied: caches and installs, not code a board would see.
const SKIP = new Set(["__pycache__", "node_modules", ".venv", ".git", ".hypothesis",
  ".pytest_cache", ".mypy_cache", ".ruff_cache"]);

function parseArgs(argv) {
  let heap = 8 * 1024 * 1024;
  let i = 0;
  while (i < argv.length && argv[i] === "-X") {
    const option = argv[i + 1] || "";
    const m = /^heapsize=(\d+)([kKmM]?)$/.exec(option);
    if (!m) throw new Error("run.mjs: unknown option -X " + option);
    heap = parseInt(m[1], 10) * ({ k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()] || 1);
    i += 2;
  }
  if (i >= argv.length) throw new Error("usage: node tools/wasm/run.mjs [-X heapsize=N] SCRIPT [ARGS...]");
  return { heap, script: path.resolve(argv[i]), args: argv.slice(i + 1) };
}

function mirror(FS, hostPath) {
  let stat;
  try { stat = fs.statSync(hostPath); } catch { return; }
  if (stat.isDirectory()) {
    FS.mkdirTree(hostPath);
    for (const name of fs.readdirSync(hostPath)) {
      if (!SKIP.has(name) && !name.endsWith(".pyc")) mirror(FS, path.join(hostPath, name));
    }
  } else if (stat.isFile()) {
    FS.mkdirTree(path.dirname(hostPath));
    FS.writeFile(hostPath, fs.readFileSync(hostPath));
  }
}

// stdin read in blocks, handed to MicroPython one byte at a time; null is end of input.
const inBuf = Buffer.alloc(65536);
let inLen = 0;
let inPos = 0;
function stdin() {
  while (inPos >= inLen) {
    try {
      inLen = fs.readSync(0, inBuf, 0, inBuf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      if (e.code === "EOF") return null;
      throw e;
    }
    inPos = 0;
    if (inLen === 0) return null;
  }
  return inBuf[inPos++];
}

// Output collected per stream and written whole lines at a time (and at exit): the
// port hands over one byte per call.
function sink(fd) {
  const buf = Buffer.alloc(65536);
  let size = 0;
  const flush = () => {
    if (size) fs.writeSync(fd, buf, 0, size);
    size = 0;
  };
  const write = (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      buf[size++] = bytes[i];
      if (bytes[i] === 10 || size === buf.length) flush();
    }
  };
  return { write, flush };
}

// The script runs as __main__ with its real file name, so tracebacks name real files.
// A script that leaves a callable STEP in its globals is then stepped: STEP() is called
// from JavaScript until it returns False. gc.collect() on this port only asks for a
// collection, made when control is back in JavaScript, so each step starts collected.
const LAUNCH = `
import sys
_main = {}
def _run(script, args):
    sys.argv.clear()
    sys.argv.append(script)
    sys.argv.extend(args)
    sys.path.insert(0, script.rsplit("/", 1)[0])
    with open(script) as f:
        code = compile(f.read(), script, "exec")
    _main["__name__"] = "__main__"
    _main["__file__"] = script
    try:
        exec(code, _main)
    except SystemExit as exc:
        code = exc.args[0] if exc.args else 0
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        sys.stderr.write(str(code) + "\\n")
        return 1
    except BaseException as exc:
        sys.print_exception(exc, sys.stderr)
        return 1
    return 0
def _step():
    step = _main.get("STEP")
    if step is None:
        return 0
    try:
        return 1 if step() else 0
    except BaseException as exc:
        sys.print_exception(exc, sys.stderr)
        return -1
`;

async function main() {
  const { heap, script, args } = parseArgs(process.argv.slice(2));
  const out = sink(1);
  const err = sink(2);
  const mp = await loadMicroPython({ heapsize: heap, stdin, stdout: out.write, stderr: err.write, linebuffer: false });
  const searchPath = (process.env.MICROPYPATH || "").split(":").filter((p) => p && p !== ".frozen");
  const shims = path.join(path.dirname(fileURLToPath(import.meta.url)), "lib");
  for (const p of searchPath.concat([shims])) mirror(mp.FS, path.resolve(p));
  mirror(mp.FS, script);
  for (const a of args) mirror(mp.FS, path.resolve(a));
  for (const f of (process.env.MICROPYTHON_WASM_FILES || "").split(":")) if (f) mirror(mp.FS, path.resolve(f));
  mp.FS.mkdirTree(process.cwd());
  mp.FS.chdir(process.cwd());
  mp.runPython("import sys\nsys.path.clear()\nsys.path.extend(" + JSON.stringify(
    searchPath.map((p) => path.resolve(p)).concat([shims, ".frozen"])) + ")\n" + LAUNCH);
  mp.globals.set("_script", script);
  mp.globals.set("_args", args);
  mp.runPython("_status = _run(_script, list(_args))");
  let status = mp.globals.get("_status");
  while (status === 0) {
    mp.runPython("_more = _step()");
    const more = mp.globals.get("_more");
    if (more !== 1) {
      if (more === -1) status = 1;
      break;
    }
  }
  out.flush();
  err.flush();
  process.exitCode = typeof status === "number" ? status : 1;
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exitCode = 1;
});
