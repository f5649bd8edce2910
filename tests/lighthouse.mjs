// Lighthouse audits, one after another, in one Node process driving one Chromium.
//
//   node tests/lighthouse.mjs JOBS.json
//
// JOBS.json: [{"url": ..., "form": "mobile" | "desktop", "out": path, "audits": [ids],
// "calibrate": bool}] (no audit ids: all of them). A calibrated job gathers first
// (Lighthouse's -G), then audits what it gathered (-A) at the CPU slowdown Lighthouse's
// calculator gives for the benchmarkIndex measured in that very run: the simulation
// scales the CPU time this host spent, so its slowdown must come from the same moment.
// Simulated throttling applies no slowdown while gathering, so the gathered settings'
// multiplier is replaced by the calibrated one before auditing.
// Each report goes to its `out` as Lighthouse's JSON. What the CLI spent per audit on
// starting Node and Chromium (about 4 s of its 11) is spent once; every run still opens a
// fresh tab and clears the origin's storage and the browser's caches (Lighthouse's own
// storage reset), so a report is the one the CLI would give. Called from
// tests/browser.py (`run_lighthouse`).
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktop from 'lighthouse/core/config/desktop-config.js';

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: JSON.parse(process.env.CHROME_FLAGS ?? '[]'),
});
let status = 0;
try {
  // A fresh Chromium paints its first page a second or two late (the first audit's
  // observed first paint came 1-2 s after its load event, the later ones' at once), which
  // the simulation turns into a slow page: one throwaway load first.
  await lighthouse(jobs[0].url, {
    port: chrome.port,
    logLevel: 'error',
    onlyAudits: ['first-contentful-paint'],
    disableFullPageScreenshot: true,
  });
  for (const job of jobs) {
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      // The full-page screenshot only illustrates the HTML report; no audit reads it.
      disableFullPageScreenshot: true,
      // How long the page must be quiet after its load before the trace ends: 500 ms, not
      // 1000. These pages do nothing after load (fonts are preloaded, so a swap happens
      // before it; no script fetches or lays out later), and the audits gave the same
      // FCP, LCP, CLS and scores either way; it saves about 1 s an audit.
      pauseAfterFcpMs: 500,
      pauseAfterLoadMs: 500,
      networkQuietThresholdMs: 500,
      cpuQuietThresholdMs: 500,
      // The back/forward cache audit weighs nothing in any score, and its gatherer
      // navigates away and back (about 0.3 s an audit).
      ...(job.audits.length ? {onlyAudits: job.audits} : {skipAudits: ['bf-cache']}),
    };
    const config = job.form === 'desktop' ? desktop : undefined;
    let result;
    if (job.calibrate) {
      const saved = `${job.out}.artifacts`;
      await lighthouse(job.url, {...flags, gatherMode: saved}, config);
      const file = join(saved, 'artifacts.json');
      const artifacts = JSON.parse(readFileSync(file, 'utf8'));
      const cpuSlowdownMultiplier = slowdown(artifacts.BenchmarkIndex);
      artifacts.settings.throttling.cpuSlowdownMultiplier = cpuSlowdownMultiplier;
      writeFileSync(file, JSON.stringify(artifacts));
      // Merged into the form's throttling settings, as the CLI's
      // --throttling.cpuSlowdownMultiplier is.
      const audit = {...flags, auditMode: saved, throttling: {cpuSlowdownMultiplier}};
      result = await lighthouse(job.url, audit, config);
    } else {
      result = await lighthouse(job.url, flags, config);
    }
    writeFileSync(job.out, result.report);
    if (result.lhr.runtimeError) {
      process.stderr.write(`${job.url}: ${result.lhr.runtimeError.message}\n`);
      status = 1;
    }
  }
} finally {
  await chrome.kill();
}
process.exit(status);

// Lighthouse's CPU throttling calculator (docs/throttling.md, "Calibrating the CPU
// slowdown"): the slowdown that makes a host of this benchmarkIndex a mid-tier phone,
// never more than the default 4x.
function slowdown(index) {
  let multiplier;
  if (index >= 1300) multiplier = 3 + (index - 1300) / 233;
  else if (index >= 800) multiplier = 2 + (index - 800) / 500;
  else multiplier = 1 + Math.max(index - 150, 0) / 650;
  return Math.round(Math.min(multiplier, 4) * 100) / 100;
}
