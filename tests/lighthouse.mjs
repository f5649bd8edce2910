// Lighthouse audits, one after another, in one Node process driving one Chromium.
//
//   node tests/lighthouse.mjs JOBS.json
//
// JOBS.json: [{"url": ..., "form": "mobile" | "desktop", "out": path, "audits": [ids],
// "cpu": multiplier}] (no audit ids: all of them; cpu 0: the form's own CPU slowdown).
// Each report goes to its `out` as Lighthouse's JSON. What the CLI spent per audit on
// starting Node and Chromium (about 4 s of its 11) is spent once; every run still opens a
// fresh tab and clears the origin's storage and the browser's caches (Lighthouse's own
// storage reset), so a report is the one the CLI would give. Called from
// tests/browser.py (`run_lighthouse`).
import {readFileSync, writeFileSync} from 'node:fs';

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
      // Merged into the form's throttling settings, as the CLI's
      // --throttling.cpuSlowdownMultiplier is.
      ...(job.cpu ? {throttling: {cpuSlowdownMultiplier: job.cpu}} : {}),
    };
    const result = await lighthouse(job.url, flags, job.form === 'desktop' ? desktop : undefined);
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
