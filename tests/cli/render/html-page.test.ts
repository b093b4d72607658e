import chromium from '@sparticuz/chromium';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftHtml, planHtml } from '../../../src/cli/html/render-html.js';
import type { DriftReport } from '../../../src/engine/planning/drift.js';
import type { Plan } from '../../../src/engine/types.js';
import { workdir } from '../../support/cli.js';

/**
 * The review pages as a reviewer sees them: opened from a file in a headless Chromium (the
 * browser @sparticuz/chromium ships inside its npm package, nothing downloaded), with every
 * request it makes counted.
 */
const GOLDEN = resolve(import.meta.dirname, '../../golden');
const read = <T>(name: string) => JSON.parse(readFileSync(join(GOLDEN, name), 'utf8')) as T;

let browser: Browser;
beforeAll(async () => {
  browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
});
afterAll(async () => browser?.close());

/** Opens a page from a file at a laptop's width; returns it with the URLs it asked for. */
async function open(html: string, width = 1280): Promise<{ page: Page; requests: string[]; url: string }> {
  const file = join(workdir('plumb-html-'), 'page.html');
  writeFileSync(file, html);
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, url };
}

/** How many colours a screenshot of the page holds, counted by the browser itself from the PNG. */
async function coloursInScreenshot(page: Page): Promise<number> {
  const png = await page.screenshot({ fullPage: true, encoding: 'base64' });
  const probe = await browser.newPage();
  try {
    return await probe.evaluate(async (data) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [img.width, img.height];
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const pixels = ctx.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4 * 7) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      return seen.size;
    }, png);
  } finally {
    await probe.close();
  }
}

/** Every place the page cuts something off: a label wider than its box, a block wider than itself, the page wider than the window. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const node of document.querySelectorAll<SVGGElement>('.graph .node')) {
      const box = node.querySelector('rect')!.getBBox();
      for (const text of node.querySelectorAll('text')) {
        const t = text.getBBox();
        if (t.x < box.x || t.x + t.width > box.x + box.width + 0.5 || t.y < box.y || t.y + t.height > box.y + box.height + 0.5) out.push(`label ${text.textContent}`);
      }
    }
    const svg = document.querySelector<SVGSVGElement>('.graph svg')!;
    for (const node of document.querySelectorAll<SVGGElement>('.graph .node')) {
      const b = node.getBoundingClientRect();
      const s = svg.getBoundingClientRect();
      if (b.left < s.left || b.right > s.right + 0.5 || b.top < s.top || b.bottom > s.bottom + 0.5) out.push(`node ${node.dataset.address} outside the drawing`);
    }
    for (const el of document.querySelectorAll<HTMLElement>('pre, td, th, summary, p, li, h1, h2')) {
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()} ${el.textContent?.slice(0, 40)}`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page is wider than the window');
    return out;
  });
}

const addresses = (page: Page) => page.$$eval('.graph .node', (nodes) => nodes.map((n) => (n as SVGGElement).dataset.address).sort());
const critical = (page: Page) => page.$$eval('.graph .node.critical', (nodes) => nodes.map((n) => (n as SVGGElement).dataset.address));

describe('plan and drift pages in a browser', () => {
  it('a plan creating a network: a screenshot renders, one node per resource, the critical path marked, nothing clipped, no request', async () => {
    const plan = read<Plan>('review-create.plan.json');
    const { page, requests, url } = await open(planHtml(plan));
    expect(requests).toEqual([url]);
    expect(await coloursInScreenshot(page)).toBeGreaterThan(8);
    expect(await addresses(page)).toEqual(plan.changes.map((c) => c.address).sort());
    // A VXC needs its port or MCR first: the longest chain of creates is two long and ends at one.
    const path = await critical(page);
    expect(path).toHaveLength(2);
    expect(['toAws', 'toRouter']).toContain(path[1]);
    expect(await page.$$eval('.graph path.critical', (edges) => edges.length)).toBe(1);
    expect(await clipped(page)).toEqual([]);
    await page.close();
  });

  it('a VXC replaced delete-first: its reason and order are on the page, the node is marked, nothing clipped', async () => {
    const plan = read<Plan>('review-vxc-replace.plan.json');
    const { page } = await open(planHtml(plan));
    const text = await page.$eval('body', (b) => b.innerText);
    expect(text).toContain('Replacements');
    expect(text).toMatch(/-\/\+ toAws \(interconnect:index\/vxc:Vxc\), deleted first, then created/);
    expect(text).toContain('bEndPartnerConfig: a aws partner config cannot change after ordering; the VXC is deleted and ordered again');
    expect(await addresses(page)).toEqual(plan.changes.map((c) => c.address).sort());
    expect(await page.$$eval('.graph .node.replace', (nodes) => nodes.map((n) => (n as SVGGElement).dataset.address))).toEqual(['toAws']);
    expect(await critical(page)).toEqual(['toAws']);
    expect(await clipped(page)).toEqual([]);
    await page.close();
  });

  it('a nested update whose values are longer than the window wraps them instead of cutting them, even on a narrow window', async () => {
    const plan = read<Plan>('review-nested-update.plan.json');
    for (const width of [1280, 520]) {
      const { page } = await open(planHtml(plan), width);
      expect(await page.$eval('pre', (p) => p.innerText)).toContain('one hundred and twenty characters" -> "dc2"');
      expect(await clipped(page)).toEqual([]);
      await page.close();
    }
  });

  it('a drift report: the drifted resource is marked in a graph of every recorded resource, its values in the table', async () => {
    const report = read<DriftReport>('review-drift.json');
    const dependencies = { toRouter: ['port', 'router'], toAws: ['port'] };
    const { page, requests, url } = await open(driftHtml(report, dependencies));
    expect(requests).toEqual([url]);
    expect(await coloursInScreenshot(page)).toBeGreaterThan(8);
    expect(await addresses(page)).toEqual(report.resources.map((r) => r.address).sort());
    expect(await page.$$eval('.graph .node.drifted', (nodes) => nodes.map((n) => (n as SVGGElement).dataset.address))).toEqual(['port']);
    expect(await page.$eval('table', (t) => t.innerText)).toMatch(/port\s+drifted\s+productName\s+"review-port"\s+"renamed-by-hand"/);
    expect(await clipped(page)).toEqual([]);
    await page.close();
  });
});
