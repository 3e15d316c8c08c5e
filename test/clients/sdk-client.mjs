#!/usr/bin/env node
// Drives Trestle with the official MCP TypeScript SDK, as a real agent would.
//
//   node sdk-client.mjs BIN attach|headless DIR
//
// spawns `BIN --mcp-attach DIR` (a running window) or `BIN --mcp --trust DIR`
// (headless) with StdioClientTransport, passing the whole environment on
// (TRESTLE_CONFIG_DIR, DISPLAY, ...). DIR must hold a .trestle.json with the
// tasks "slowecho" (prints a few lines slowly) and "sleepy" (prints a line,
// then sleeps). It lists the tools, calls trestle_read and trestle_files,
// runs slowecho with progress, cancels a wait on sleepy with an AbortSignal
// (the run goes on), runs sleepy with the default wait and client timeout
// (it answers "still running" with the run_id) while 100 pipelined calls
// are all answered, and prints one JSON summary line on stdout. Any failure: a message on stderr, exit 1.
// Run by cmd/trestle/clients_test.go (TestTypeScriptSDKClient).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, mode, dir] = process.argv.slice(2);
if (!bin || !["attach", "headless"].includes(mode) || !dir) {
  console.error("usage: node sdk-client.mjs BIN attach|headless DIR");
  process.exit(2);
}

let serverStderr = "";
let step = "start";
const fail = (msg) => {
  throw new Error(msg);
};
const check = (cond, msg) => {
  if (!cond) fail(msg);
};
const text = (res) => (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const transport = new StdioClientTransport({
    command: bin,
    args: mode === "attach" ? ["--mcp-attach", dir] : ["--mcp", "--trust", dir], // trusted: the project's .trestle.json task runs
    env: { ...process.env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (b) => {
    serverStderr += b.toString();
  });
  let negotiated = "";
  transport.setProtocolVersion = (v) => {
    negotiated = v;
  };
  const client = new Client({ name: "ts-sdk-test", version: "1.0.0" });
  const summary = { mode };

  step = "connect";
  await client.connect(transport, { timeout: 20000 });
  summary.protocolVersion = negotiated;
  summary.server = client.getServerVersion()?.name;
  check(summary.server === "trestle", `serverInfo.name is ${JSON.stringify(summary.server)}, want "trestle"`);
  check(negotiated !== "", "no protocol version was negotiated");
  check((client.getInstructions() ?? "").length > 0, "the server sent no instructions at initialize");

  step = "tools/list";
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  summary.tools = names.length;
  const want = ["trestle_files", "trestle_read", "trestle_run"];
  if (mode === "attach") want.push("trestle_workbench");
  for (const w of want) check(names.includes(w), `tools/list ${JSON.stringify(names)} lacks ${w}`);
  for (const t of tools) {
    check(!/"type":\[/.test(JSON.stringify(t)), `${t.name} declares a type list, which strict clients reject: ${JSON.stringify(t)}`);
    check(t.description && t.description.length > 20, `${t.name} has no useful description`);
    check(t.inputSchema?.type === "object", `${t.name} has no object input schema`);
  }

  step = "trestle_read";
  let res = await client.callTool({ name: "trestle_read", arguments: { path: "go.mod" } });
  check(!res.isError, `trestle_read go.mod: ${text(res)}`);
  // A file's text is sent once, as text (docs/tools.md): a header line, then the text.
  check(res.structuredContent === undefined, `trestle_read sends its text twice: ${JSON.stringify(res.structuredContent)}`);
  check(/^go\.mod lines 1-\d+ of \d+, sha256 [0-9a-f]{64}:\nmodule /.test(text(res)), `trestle_read text: ${JSON.stringify(text(res))}`);

  res = await client.callTool({ name: "trestle_read", arguments: { path: "go.mod", bogus: 1 } });
  check(res.isError && text(res) === 'problem: unknown argument "bogus"; allowed: path, start_line, end_line',
    `trestle_read with an unknown argument: ${JSON.stringify(res)}`);
  res = await client.callTool({ name: "trestle_read", arguments: { path: 42 } });
  check(res.isError && text(res) === "problem: path must be a string", `trestle_read path 42: ${JSON.stringify(res)}`);

  res = await client.callTool({ name: "trestle_read", arguments: { path: "../outside.txt" } });
  check(res.isError && text(res).startsWith("refused"), `trestle_read ../outside.txt: want isError "refused…", got ${JSON.stringify(res)}`);

  step = "trestle_files";
  res = await client.callTool({ name: "trestle_files", arguments: {} });
  check(!res.isError, `trestle_files: ${text(res)}`);
  const files = res.structuredContent?.files ?? [];
  for (const f of ["go.mod", "main.go", "pkg/calc.go"]) check(files.includes(f), `trestle_files ${JSON.stringify(files)} lacks ${f}`);
  summary.files = files.length;

  step = "trestle_run with progress";
  const progress = [];
  let resultAt = 0;
  const t0 = Date.now();
  res = await client.callTool(
    { name: "trestle_run", arguments: { task: "slowecho", wait_seconds: 30 } },
    undefined,
    {
      timeout: 45000,
      onprogress: (p) => progress.push({ at: Date.now(), progress: p.progress, message: p.message ?? "" }),
    },
  );
  resultAt = Date.now();
  check(!res.isError, `trestle_run slowecho: ${text(res)}\n(server stderr: ${serverStderr})`);
  check(res.structuredContent?.run_state === "passed", `trestle_run slowecho run_state: ${JSON.stringify(res.structuredContent)}`);
  check(/line 5/.test(res.structuredContent.output), `trestle_run output: ${JSON.stringify(res.structuredContent.output)}`);
  check(progress.length >= 2, `want at least 2 progress notifications from a 1s run, got ${progress.length}`);
  check(progress.every((p) => p.at <= resultAt), "a progress notification arrived after the result");
  check(progress.some((p) => /line 1/.test(p.message)), `no progress message carried "line 1": ${JSON.stringify(progress)}`);
  check(progress[0].at - t0 < resultAt - t0 - 300, `the first progress came only at the end (${progress[0].at - t0}ms of ${resultAt - t0}ms): not streamed`);
  for (let i = 1; i < progress.length; i++) {
    check(progress[i].progress > progress[i - 1].progress, `progress did not increase: ${JSON.stringify(progress)}`);
  }
  summary.progress = progress.length;
  summary.runMs = resultAt - t0;

  step = "trestle_run cancelled with an AbortSignal";
  const ac = new AbortController();
  let started = false;
  const call = client.callTool(
    { name: "trestle_run", arguments: { task: "sleepy", wait_seconds: 60 } },
    undefined,
    {
      signal: ac.signal,
      timeout: 90000,
      onprogress: () => {
        started = true;
      },
    },
  );
  call.catch(() => {}); // awaited below
  for (let i = 0; i < 100 && !started; i++) await sleep(100);
  check(started, `the sleepy run sent no progress within 10s (server stderr: ${serverStderr})`);
  const abortedAt = Date.now();
  ac.abort("test cancels the run");
  let rejected = false;
  try {
    await Promise.race([call, sleep(2000).then(() => fail("the aborted call did not settle within 2s"))]);
  } catch (e) {
    if (/did not settle/.test(String(e.message))) throw e;
    rejected = true;
  }
  check(rejected, "the aborted call resolved instead of rejecting");
  summary.cancelMs = Date.now() - abortedAt;

  // notifications/cancelled ends only the wait: the run goes on on the
  // server (it used to be stopped, and with it a run whose run_id the agent
  // never got), and trestle_stop ends it.
  step = "the run after the cancellation";
  res = await client.callTool({ name: "trestle_run_status", arguments: {} });
  check(res.structuredContent?.run_state === "running", `the cancelled call's run: ${text(res)} (a cancelled wait stopped the run)`);
  res = await client.callTool({ name: "trestle_stop", arguments: { what: "run" } });
  check(!res.isError, `trestle_stop: ${text(res)}`);
  let after;
  for (let i = 0; i < 30; i++) {
    after = await client.callTool({ name: "trestle_run", arguments: { task: "quick", wait_seconds: 30 } });
    if (!(after.isError && text(after).startsWith("busy"))) break;
    await sleep(100);
  }
  check(!after.isError, `a run after trestle_stop: ${text(after)} (the stopped run still holds the project)`);
  summary.stoppedMs = Date.now() - abortedAt;

  // A run longer than the client's default request timeout (60 s), called
  // with every default: the call answers "still running" with the run_id
  // first. Meanwhile 100 pipelined calls that each wait a second are all
  // answered (a session used to refuse the 65th and later).
  step = "a long run with the default client timeout, and 100 pipelined calls";
  const longAt = Date.now();
  let longStarted = false;
  const longRun = client
    .callTool({ name: "trestle_run", arguments: { task: "sleepy" } }, undefined, {
      onprogress: () => {
        longStarted = true;
      },
    })
    .then((r) => {
      summary.longRunMs = Date.now() - longAt; // when the run_id reached the client
      return r;
    });
  for (let i = 0; i < 100 && !longStarted; i++) await sleep(100);
  check(longStarted, `the sleepy run sent no progress within 10s (server stderr: ${serverStderr})`);
  const pipelined = await Promise.all(
    Array.from({ length: 100 }, () =>
      client.callTool({ name: "trestle_run_status", arguments: { wait_seconds: 1 } }).then(
        (r) => r,
        (e) => ({ rejected: String(e?.message ?? e) }),
      ),
    ),
  );
  const bad = pipelined.filter((r) => r.rejected || r.isError || !r.structuredContent?.run_id);
  check(bad.length === 0, `${bad.length} of 100 pipelined calls failed, e.g. ${JSON.stringify(bad[0])}`);
  summary.pipelined = pipelined.length;
  res = await longRun;
  const runID = res.structuredContent?.run_id;
  check(!res.isError && res.structuredContent?.run_state === "running" && runID, `trestle_run sleepy with the default wait: ${text(res)}`);
  check(/still running/.test(text(res)) && text(res).includes(runID), `the answer does not say it is still running, with its id: ${text(res)}`);
  res = await client.callTool({ name: "trestle_run_status", arguments: { run_id: runID } });
  check(res.structuredContent?.run_state === "running", `${runID} after its call returned: ${text(res)}`);
  res = await client.callTool({ name: "trestle_stop", arguments: { what: "run" } });
  check(!res.isError, `trestle_stop: ${text(res)}`);

  step = "close";
  await client.close();
  process.stdout.write(JSON.stringify(summary) + "\n");
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`sdk-client (${mode}) failed at ${step}: ${e?.stack ?? e}`);
    if (serverStderr) console.error(`trestle stderr:\n${serverStderr}`);
    process.exit(1);
  },
);
