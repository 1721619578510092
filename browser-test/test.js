// What a reader sees: the built books, served over HTTP on localhost, in a
// real headless Chromium driven by playwright-core (which downloads nothing).
//
//   node test.js REPO_ROOT
//
// The books must already be built (run.sh does that): the guide in
// target/book and the example in target/examples/community. Screenshots go
// to $SCREENSHOT_DIR (default: target/screenshots). Exits 1 on any failed
// check.
"use strict";

const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const repo = path.resolve(process.argv[2] || path.join(__dirname, ".."));
const screenshotDir = path.resolve(
  process.env.SCREENSHOT_DIR || path.join(repo, "target", "screenshots"),
);
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const THEMES = ["light", "rust", "coal", "navy", "ayu"];
const VIEWPORT = { width: 1280, height: 900 };

const BOOKS = {
  guide: path.join(repo, "target", "book"),
  example: path.join(repo, "target", "examples", "community"),
};

// ---------------------------------------------------------------- server --

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".eot": "application/vnd.ms-fontobject",
  ".otf": "font/otf",
  ".txt": "text/plain; charset=utf-8",
};

/** Serves /guide/... and /example/... from the build folders. */
function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const [, book, ...rest] = decodeURIComponent(url.pathname).split("/");
    const root = BOOKS[book];
    let file = root && path.join(root, ...rest);
    if (!root || !file.startsWith(root)) {
      res.writeHead(404).end("not found");
      return;
    }
    try {
      if (fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
      const body = fs.readFileSync(file);
      const type = TYPES[path.extname(file).toLowerCase()] || "application/octet-stream";
      res.writeHead(200, { "content-type": type }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

// ---------------------------------------------------------------- checks --

const results = [];
let current = null;

/** Runs one named check; a thrown error or a failed expectation fails it. */
async function check(name, fn) {
  current = { name, failures: [] };
  const started = Date.now();
  try {
    await fn();
  } catch (e) {
    current.failures.push(String(e && e.stack ? e.stack.split("\n").slice(0, 3).join("\n") : e));
  }
  current.ms = Date.now() - started;
  results.push(current);
  const mark = current.failures.length ? "FAIL" : "ok  ";
  console.log(`${mark} ${name} (${current.ms} ms)`);
  for (const f of current.failures) console.log(`       ${f.replace(/\n/g, "\n       ")}`);
  current = null;
}

function expect(cond, message) {
  if (!cond) current.failures.push(message);
  return cond;
}

// ----------------------------------------------------------------- pages --

let context;
let base;
const visited = [];

/**
 * Opens a page of a book with the given theme set before any page script
 * runs, and records console errors, page errors and failed requests.
 */
async function open(book, rel, { theme = "light" } = {}) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) =>
    problems.push(`request failed: ${r.url()} (${r.failure() && r.failure().errorText})`),
  );
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.addInitScript((t) => {
    try {
      localStorage.setItem("mdbook-theme", t);
    } catch (e) {
      // storage disabled: the default theme
    }
  }, theme);
  await page.setViewportSize(VIEWPORT);
  const url = `${base}/${book}/${rel}`;
  await page.goto(url, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready);
  visited.push({ url, problems, page });
  return page;
}

/** Closes a page after checking it had no console errors or failed requests. */
async function done(page) {
  const entry = visited.find((v) => v.page === page);
  await page.waitForTimeout(50);
  for (const p of entry.problems) expect(false, `${entry.url}: ${p}`);
  entry.checked = true;
  await page.close();
}

/** State of the FAQ entry whose question has id `id`. */
function entry(page, id) {
  return page.evaluate((id) => {
    const heading = document.getElementById(id);
    if (!heading) return null;
    const details = heading.closest("details.community-faq-entry");
    const answer = details && details.querySelector(":scope > :not(summary)");
    const rect = heading.getBoundingClientRect();
    const visible = (el) => !!el && el.checkVisibility({ visibilityProperty: true });
    const hit = document.elementFromPoint(rect.left + Math.min(20, rect.width / 2), rect.top + rect.height / 2);
    return {
      inDetails: !!details,
      open: !!details && details.open,
      answerVisible: visible(answer),
      inViewport: rect.top >= 0 && rect.bottom <= window.innerHeight,
      // not hidden under mdBook's sticky menu bar
      unobscured: !!hit && heading.contains(hit),
      hash: decodeURIComponent(location.hash.slice(1)),
    };
  }, id);
}

/**
 * The state of the FAQ entry `id` once `wanted(state)` holds, or after a
 * second: a click's effects (the toggle, then mdBook's and our handlers of
 * the new fragment) land over a few frames, later on a loaded machine.
 */
async function settled(page, id, wanted) {
  let state = await entry(page, id);
  for (let i = 0; i < 20 && !(state && wanted(state)); i++) {
    await page.waitForTimeout(50);
    state = await entry(page, id);
  }
  return state;
}

/** Every FAQ entry of the page: its id, whether it is open, and whether its answer shows. */
function faqEntries(page, selector = "details.community-faq-entry") {
  return page.$$eval(selector, (all) =>
    all.map((d) => {
      const answer = d.querySelector(":scope > :not(summary)");
      const heading = d.querySelector("summary :is(h1,h2,h3,h4,h5,h6)");
      return {
        id: heading && heading.id,
        open: d.open,
        answerVisible: !!answer && answer.checkVisibility({ visibilityProperty: true }),
      };
    }),
  );
}

// -------------------------------------------------------------- the test --

const SEARCH_TOGGLE = "#mdbook-search-toggle, #search-toggle"; // mdBook 0.5, 0.4
const SEARCH_BAR = "#mdbook-searchbar, #searchbar";
const SEARCH_RESULTS = "#mdbook-searchresults a, #searchresults a";

async function main() {
  for (const [name, dir] of Object.entries(BOOKS)) {
    if (!fs.existsSync(path.join(dir, "index.html"))) {
      console.error(`no built book in ${dir} (${name}); run browser-test/run.sh`);
      process.exit(2);
    }
  }
  const server = await serve();
  base = `http://127.0.0.1:${server.address().port}`;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mdbook-community-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: VIEWPORT,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const started = Date.now();
  try {
    await run();
  } finally {
    for (const v of visited) if (!v.page.isClosed()) await v.page.close();
    await context.close();
    server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  const failed = results.filter((r) => r.failures.length);
  console.log(
    `\n${results.length - failed.length}/${results.length} checks passed, ` +
      `${visited.length} page loads, ${shots.length} screenshots in ${path.relative(repo, screenshotDir) || "."}, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s in the browser`,
  );
  if (failed.length) {
    console.log(`FAILED: ${failed.map((r) => r.name).join("; ")}`);
    process.exitCode = 1;
  }
}

const shots = [];

async function run() {
  // 1. Collapsed by default, except blocks with `open`.
  await check("FAQ entries start collapsed; `open` blocks start expanded", async () => {
    for (const [book, rel, wantOpen] of [
      ["example", "contribution-guide.html", false],
      ["example", "governance.html", false],
      ["example", "code-owners.html", true],
      ["guide", "faq.html", false],
      // The reference chapter's example of `open` uses `id-prefix=options-`.
      ["guide", "directives/faq.html", (id) => id.startsWith("options-")],
    ]) {
      const page = await open(book, rel);
      const entries = await faqEntries(page);
      expect(entries.length > 0, `${book}/${rel}: no FAQ entries`);
      const opened = entries.filter((e) => e.open);
      expect(typeof wantOpen !== "function" || (opened.length > 0 && opened.length < entries.length),
        `${book}/${rel}: expected both collapsed and expanded entries, ${opened.length}/${entries.length} open`);
      for (const e of entries) {
        const want = typeof wantOpen === "function" ? wantOpen(e.id) : wantOpen;
        expect(e.open === want, `${book}/${rel}#${e.id}: open=${e.open}, expected ${want}`);
        expect(e.answerVisible === want, `${book}/${rel}#${e.id}: answer visible=${e.answerVisible}, expected ${want}`);
      }
      await done(page);
    }
  });

  // 2. A click on a question expands its answer (and a second one folds it).
  await check("clicking a question expands and collapses its answer", async () => {
    const page = await open("example", "contribution-guide.html");
    const id = "what-are-the-most-high-risk-changes";
    const question = page.locator(`summary:has(#${id})`);
    await question.scrollIntoViewIfNeeded();
    // On the question's text (mdBook's heading link) ...
    const shown = (s) => s.open && s.answerVisible;
    await page.locator(`#${id}`).click();
    let state = await settled(page, id, shown);
    expect(shown(state), `after a click on the question: ${JSON.stringify(state)}`);
    await page.locator(`#${id}`).click();
    state = await settled(page, id, (s) => !shown(s));
    expect(!state.open && !state.answerVisible, `after a second click: ${JSON.stringify(state)}`);
    // ... and beside it, on the summary's empty space.
    const box = await question.boundingBox();
    await page.mouse.click(box.x + box.width - 10, box.y + box.height / 2);
    state = await settled(page, id, shown);
    expect(shown(state), `after a click beside the question: ${JSON.stringify(state)}`);
    // Other entries stay as they were.
    const others = (await faqEntries(page)).filter((e) => e.id !== id && e.open);
    expect(others.length === 0, `other entries opened too: ${others.map((e) => e.id)}`);
    await done(page);

    const guide = await open("guide", "faq.html");
    const first = (await faqEntries(guide))[0].id;
    await guide.locator(`#${first}`).click();
    state = await settled(guide, first, shown);
    expect(state.open && state.answerVisible, `guide faq.html#${first}: ${JSON.stringify(state)}`);
    await done(guide);
  });

  // 3. A question's URL fragment opens its answer, scrolled into view.
  await check("a question's URL fragment shows its answer expanded and in view", async () => {
    for (const [book, rel, id] of [
      ["example", "contribution-guide.html", "ci-tests-failed-what-does-it-mean"],
      ["example", "contribution-guide.html", "do-i-need-to-sign-anything-before-contributing"],
      ["example", "governance.html", "faq-does-torchlight-pay-stipends-to-independent-developers"],
      ["guide", "faq.html", "can-i-keep-the-people-data-in-json"],
    ]) {
      const page = await open(book, `${rel}#${id}`);
      await page.waitForTimeout(200); // let mdBook's own scripts settle
      const state = await entry(page, id);
      expect(state && state.open && state.answerVisible && state.inViewport && state.unobscured,
        `${book}/${rel}#${id}: ${JSON.stringify(state)}`);
      const others = (await faqEntries(page)).filter((e) => e.id !== id && e.open);
      expect(others.length === 0, `${book}/${rel}#${id}: other entries open too: ${others.map((e) => e.id)}`);
      await done(page);
    }
    // Following a hand-written link to a question from another page.
    const page = await open("example", "introduction.html");
    await Promise.all([
      page.waitForURL(/contribution-guide\.html#ci-tests-failed-what-does-it-mean$/),
      page.getByRole("link", { name: "My CI run failed. Is it my fault?" }).click(),
    ]);
    await page.waitForLoadState("load");
    await page.waitForTimeout(200);
    const state = await entry(page, "ci-tests-failed-what-does-it-mean");
    expect(state.open && state.answerVisible && state.inViewport && state.unobscured,
      `link from introduction.html: ${JSON.stringify(state)}`);
    // And to a question on the same page (the fragment changes, no reload).
    await open_in_place(page, "code-owners.html");
    await done(page);
  });

  // 3b. mdBook marks the heading a URL fragment points to with "»" 30px
  // before it; in a FAQ card it must not cover the disclosure triangle.
  await check("the linked question's » marker is beside the card, not on its triangle, in every theme", async () => {
    for (const theme of THEMES) {
      for (const [book, rel, id] of [
        ["guide", "faq.html", "can-i-keep-the-people-data-in-json"],
        ["example", "governance.html", "faq-does-torchlight-pay-stipends-to-independent-developers"],
      ]) {
        const page = await open(book, `${rel}#${id}`, { theme });
        await page.waitForTimeout(200);
        await page.mouse.move(0, VIEWPORT.height - 1);
        const where = await markerPlace(page, id);
        const at = `${book}/${rel}#${id} (${theme})`;
        expect(where.content.includes("»"), `${at}: no » marker (content ${where.content})`);
        expect(where.onTriangle.length === 0,
          `${at}: the » marker covers the triangle at x=${where.onTriangle.join(",")} (card ${where.card})`);
        expect(where.besideCard, `${at}: no » marker within 30px before the card (card ${where.card})`);
        if (theme === "light" || theme === "coal") {
          const file = path.join(screenshotDir, `${book}-faq-linked-${theme}.png`);
          fs.mkdirSync(screenshotDir, { recursive: true });
          await page.screenshot({ path: file });
          shots.push(file);
        }
        await done(page);
      }
    }
  });

  // 4. mdBook's search finds a question and leads to it.
  await check("search finds a word of one FAQ question and leads to its answer", async () => {
    for (const [book, start, word, how, target] of [
      ["example", "introduction.html", "stipends", "key", "governance.html#faq-does-torchlight-pay-stipends-to-independent-developers"],
      ["guide", "installation.html", "backticks", "button", "faq.html#my-faq-answer-has-a-code-block-with-backticks-how"],
    ]) {
      const page = await open(book, start);
      if (how === "key") {
        await page.locator("body").press("s");
      } else {
        await page.locator(SEARCH_TOGGLE).click();
      }
      const bar = page.locator(SEARCH_BAR);
      await bar.waitFor({ state: "visible" });
      await bar.pressSequentially(word, { delay: 20 }); // mdBook searches on key events
      const links = page.locator(SEARCH_RESULTS);
      await links.first().waitFor({ state: "visible", timeout: 10000 });
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      const [targetPage, id] = target.split("#");
      expect(hrefs.length === 1, `${book}: "${word}" should appear in one place only, found ${JSON.stringify(hrefs)}`);
      const href = hrefs[0] || "";
      expect(href.split("?")[0] === targetPage && href.endsWith(`#${id}`),
        `${book}: the result for "${word}" links to ${href}, expected ${target}`);
      await Promise.all([page.waitForURL((u) => u.pathname.endsWith(`/${targetPage}`)), links.first().click()]);
      await page.waitForLoadState("load");
      await page.waitForTimeout(300);
      const state = await entry(page, id);
      expect(state && state.hash === id && state.open && state.answerVisible && state.inViewport,
        `${book}: after following the result: ${page.url()} ${JSON.stringify(state)}`);
      const marked = await page.locator(`details:has(#${id}) mark`).count();
      expect(marked > 0, `${book}: "${word}" is not highlighted in the opened question`);
      await done(page);
    }
  });

  // 4b. Printing shows every answer: print.html opens them all, and a
  // browser's print of a page shows them through the print styles (and
  // opens them on `beforeprint`).
  await check("printing shows every FAQ answer expanded", async () => {
    for (const book of ["example", "guide"]) {
      const page = await open(book, "print.html");
      await page.waitForTimeout(200);
      const entries = await faqEntries(page);
      expect(entries.length > 5, `${book}/print.html: only ${entries.length} FAQ entries`);
      const closed = entries.filter((e) => !e.open || !e.answerVisible);
      expect(closed.length === 0, `${book}/print.html: answers not shown: ${closed.map((e) => e.id)}`);
      await done(page);
    }
    const page = await open("example", "governance.html");
    let entries = await faqEntries(page);
    expect(entries.length > 0 && entries.every((e) => !e.open), "governance.html: expected closed entries on screen");
    await page.emulateMedia({ media: "print" });
    entries = await faqEntries(page);
    const hidden = entries.filter((e) => !e.answerVisible);
    expect(hidden.length === 0, `print media: answers hidden: ${hidden.map((e) => e.id)}`);
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
    entries = await faqEntries(page);
    const shut = entries.filter((e) => !e.open);
    expect(shut.length === 0, `after beforeprint: still closed: ${shut.map((e) => e.id)}`);
    await done(page);
  });

  // 5. Maintainer lists and tables, with their profile links.
  await check("maintainer lists, tables and sentences render with profile links", async () => {
    const gh = (h) => `https://github.com/${h}`;
    let page = await open("example", "persons-of-interest.html");
    await expectGroups(page, [
      ["lead-core-maintainer-bdfl", "H3", [["Mira Okonkwo", gh("mokonkwo")]]],
      ["core-maintainers", "H3", [
        ["Mira Okonkwo, lead", gh("mokonkwo")],
        ["Tobias Brandt", gh("tbrandt")],
        ["(sunsetting) Olga Petrova", gh("opetrova")],
        ["(emeritus) Henrik Dahl", gh("hdahl")],
      ]],
      ["core-developers", "H3", [
        ["Julien Morel", gh("jmorel")],
        ["Yu-Ting Lin, release manager", gh("ylin")],
        ["(emeritus) Gus Whitfield", null],
      ]],
      ["module-maintainers", "H3", []],
      ["compiler-torchlightcompiler", "H4", [["Daichi Nakamura, module lead", gh("dnakamura")]]],
      ["distributed-torchlightdistributed", "H4", [
        ["Yu-Ting Lin, triage lead", gh("ylin")],
        ["(emeritus) Ben Sato", "https://forge.torchlight.example.org/bsato"],
      ]],
      ["nn-apis-torchlightnn", "H4", [["Anna Chen", gh("AnnaChen")]]],
      ["cuda", "H5", [["Felipe García", gh("fgarcia")]]],
      ["documentation", "H4", [
        ["Wendy Baptiste", "mailto:wendy@torchlight.example.org"],
        ["(emeritus) Gus Whitfield", null],
      ]],
    ]);
    await done(page);

    page = await open("example", "governance.html");
    const rows = await tableRows(page, "#core-maintainers ~ .table-wrapper table");
    expect(rows.length === 7, `governance core table: ${rows.length} rows, expected 7 (emeritus hidden)`);
    expectRow(rows, "Mira Okonkwo", gh("mokonkwo"), ["mokonkwo", "lead", "", "Independent"]);
    expectRow(rows, "Olga Petrova", gh("opetrova"), ["opetrova", "", "sunsetting", "Kestrel Systems"]);
    expect(!rows.some((r) => r.cells[0] === "Henrik Dahl"), "emeritus Henrik Dahl shown in a hide=emeritus table");
    const lead = await page.locator("#lead-core-maintainer-bdfl ~ p").first().innerText();
    expect(/lead core maintainer is\s+Mira Okonkwo \(mokonkwo\)\./.test(lead), `inline lead: ${lead}`);
    expect(await hasLink(page, "#lead-core-maintainer-bdfl ~ p", "mokonkwo", gh("mokonkwo")), "inline lead: no profile link");
    await done(page);

    page = await open("example", "code-owners.html");
    const owners = await tableRows(page, "main table >> nth=0");
    // 17 rules, and a section row for the comment above the sparse rule.
    expect(owners.length === 18, `CODEOWNERS table: ${owners.length} rows, expected 18`);
    const section = owners.find((r) => r.cells[0].startsWith("Sparse has no active maintainer"));
    expect(section && section.cells[1] === "", `no section row for the sparse comment: ${JSON.stringify(owners.map((r) => r.cells[0]))}`);
    const all = owners.find((r) => r.cells[0] === "*");
    expect(all && all.cells[1] === "Core Maintainers" && all.links.some((l) => l.endsWith("persons-of-interest.html#core-maintainers")),
      `@torchlight/core is not the Core Maintainers group linked to its heading: ${JSON.stringify(all)}`);
    const nn = owners.find((r) => r.cells[0] === "/torchlight/nn/");
    expect(nn && nn.links.includes(gh("AnnaChen")), `@annachen not linked to Anna Chen's profile: ${JSON.stringify(nn)}`);
    const sparse = owners.find((r) => r.cells[0] === "/torchlight/sparse/");
    expect(sparse && sparse.cells[1] === "no code owner", `sparse: ${JSON.stringify(sparse)}`);
    await done(page);

    page = await open("guide", "maintainers.html");
    expect(await hasLink(page, "#project-maintainers ~ .table-wrapper table", "mdbook-community", "https://github.com/mdbook-community"),
      "guide maintainers.html: no link to https://github.com/mdbook-community");
    const made_up = await page.locator("main").innerText();
    expect(!made_up.includes("Example"), "guide maintainers.html shows the made-up example-* people");
    await done(page);

    page = await open("guide", "directives/person.html");
    expect(await hasLink(page, "main blockquote", "example-margaret", "mailto:margaret@example.com"),
      "guide directives/person.html: no mailto link for example-margaret");
    await done(page);

    page = await open("guide", "directives/maintainers.html");
    const table = await tableRows(page, "#styletable ~ .table-wrapper table");
    expectRow(table, "Ada Example", "https://example.com/ada", ["example-ada", "lead", "", "Example University"]);
    await done(page);

    // {{#codeowners coverage depth=1}}: this repository's own folders.
    page = await open("guide", "owners.html");
    const coverage = await tableRows(page, "#coverage ~ .table-wrapper table");
    const src = coverage.find((r) => r.cells[0] === "src/");
    expect(src && /^\d+$/.test(src.cells[1]) && src.cells[2].endsWith("%") && src.cells[3] !== "",
      `guide owners.html: no coverage row for src/: ${JSON.stringify(coverage)}`);
    expect(coverage.length > 3 && coverage.every((r) => r.cells[0].split("/").length === 2),
      `guide owners.html: depth=1 shows deeper folders: ${JSON.stringify(coverage.map((r) => r.cells[0]))}`);
    const sentence = await page.locator("main").innerText();
    expect(/files of the repository/.test(sentence), "guide owners.html: no whole-repository sentence");
    await done(page);
  });

  // 7. Screenshots in every theme (6, no console errors, is checked on each).
  await check("screenshots of FAQ, maintainer and coverage blocks in all five themes", async () => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    const views = [
      ["example", "faq", "governance.html", "#faq", openFirstTwo],
      ["example", "maintainers", "persons-of-interest.html", "#core-maintainers", null],
      ["example", "table", "governance.html", "#core-maintainers", null],
      ["example", "faq-open", "code-owners.html", "#questions-about-code-owners", null],
      ["guide", "faq", "faq.html", "main h1", openFirstTwo],
      ["guide", "maintainers", "directives/maintainers.html", "#styletable", null],
      ["guide", "coverage", "owners.html", "#coverage", null],
    ];
    for (const theme of THEMES) {
      for (const [book, what, rel, anchor, prepare] of views) {
        const page = await open(book, rel, { theme });
        const applied = await page.evaluate(() => document.documentElement.className);
        expect(applied.split(/\s+/).includes(theme), `${book}/${rel}: theme ${theme} not applied (html class "${applied}")`);
        if (prepare) await prepare(page);
        await page.evaluate((sel) => {
          const el = document.querySelector(sel);
          window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 70);
        }, anchor);
        await page.mouse.move(0, VIEWPORT.height - 1);
        await page.waitForTimeout(100);
        const file = path.join(screenshotDir, `${book}-${what}-${theme}.png`);
        await page.screenshot({ path: file });
        shots.push(file);
        await contrast(page, `${book}/${rel} (${theme})`);
        await done(page);
      }
    }
  });

  // 8. The affiliations chart (issue 39): in every theme it is drawn, has an
  // accessible name and description, its bars and text take the theme's
  // colours, and the table with the same numbers follows it.
  await check("the affiliations chart is visible, named and followed by its table in all five themes", async () => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    const charts = [
      ["example", "governance.html", "affiliations-core", 5],
      ["guide", "directives/affiliations.html", "affiliations-example-core", 2],
    ];
    for (const theme of THEMES) {
      for (const [book, rel, id, organisations] of charts) {
        const page = await open(book, rel, { theme });
        const at = `${book}/${rel} (${theme})`;
        const chart = await page.evaluate((id) => {
          const figure = document.getElementById(id);
          const svg = figure && figure.querySelector("svg");
          if (!svg) return null;
          svg.scrollIntoView();
          const box = svg.getBoundingClientRect();
          const named = (svg.getAttribute("aria-labelledby") || "").split(/\s+/)
            .map((ref) => (document.getElementById(ref) || {}).textContent || "");
          const bars = [...svg.querySelectorAll("rect")].map((r) => {
            const b = r.getBoundingClientRect();
            return { w: b.width, h: b.height, fill: getComputedStyle(r).fill };
          });
          const label = svg.querySelector("text");
          let next = figure.nextElementSibling;
          const table = next && (next.matches("table") ? next : next.querySelector("table"));
          return {
            role: svg.getAttribute("role"),
            viewBox: svg.getAttribute("viewBox"),
            w: box.width,
            h: box.height,
            named,
            bars,
            text: label ? getComputedStyle(label).fill : "",
            fg: getComputedStyle(document.body).color,
            bg: getComputedStyle(document.body).backgroundColor,
            rows: table ? table.tBodies[0].rows.length : 0,
          };
        }, id);
        expect(chart, `${at}: no chart #${id}`);
        if (chart) {
          expect(chart.role === "img", `${at}: role is ${chart.role}, not img`);
          expect(chart.viewBox, `${at}: the viewBox was lost`);
          expect(chart.w > 200 && chart.h > 40, `${at}: the chart is not visible (${chart.w}x${chart.h})`);
          expect(chart.named[0].startsWith("Members of "), `${at}: no accessible name: ${chart.named[0]}`);
          expect(chart.named[1] && chart.named[1].includes("organisations"), `${at}: no description`);
          expect(chart.bars.length === organisations, `${at}: ${chart.bars.length} bars, not ${organisations}`);
          for (const bar of chart.bars) {
            expect(bar.w > 0 && bar.h > 0, `${at}: a bar is not drawn (${bar.w}x${bar.h})`);
            expect(bar.fill && bar.fill !== "none" && bar.fill !== chart.bg, `${at}: a bar's fill ${bar.fill} is not the theme's (background ${chart.bg})`);
          }
          expect(chart.text === chart.fg, `${at}: the labels are ${chart.text}, not the theme's text colour ${chart.fg}`);
          expect(chart.rows === organisations, `${at}: the table beside the chart has ${chart.rows} rows`);
        }
        const file = path.join(screenshotDir, `${book}-affiliations-${theme}.png`);
        await page.screenshot({ path: file });
        shots.push(file);
        await done(page);
      }
    }
  });

  // 6. No console errors or failed requests anywhere (checked per page above).
  await check("no console errors or failed requests on any visited page", async () => {
    const unchecked = visited.filter((v) => !v.checked);
    for (const v of unchecked) for (const p of v.problems) expect(false, `${v.url}: ${p}`);
    expect(visited.length > 0, "no pages visited");
  });
}

/** Clicks a hand-written link to a question on the example's code owners page. */
async function open_in_place(page, rel) {
  await page.goto(`${base}/example/${rel}`);
  const id = "how-long-until-someone-reviews-my-pull-request";
  await Promise.all([
    page.waitForURL(new RegExp(`contribution-guide\\.html#${id}$`)),
    page.getByRole("link", { name: "FAQ on slow reviews" }).click(),
  ]);
  await page.waitForLoadState("load");
  await page.waitForTimeout(200);
  const state = await entry(page, id);
  expect(state.open && state.answerVisible && state.inViewport && state.unobscured,
    `link from code-owners.html: ${JSON.stringify(state)}`);
}

/**
 * Where the "»" marker of the targeted question `id` is, by hit-testing
 * the row through the middle of the question (a pseudo-element hits as its
 * heading): the points between the card's edge and the question's text,
 * where the disclosure triangle is, that hit the heading; and whether a
 * point within 30px before the card does.
 */
function markerPlace(page, id) {
  return page.evaluate((id) => {
    const heading = document.getElementById(id);
    const summary = heading.closest("summary");
    const card = heading.closest("details").getBoundingClientRect();
    const text = summary.getBoundingClientRect();
    const y = heading.getBoundingClientRect().top + heading.getBoundingClientRect().height / 2;
    const hits = (x) => {
      const el = document.elementFromPoint(x, y);
      return !!el && (el === heading || heading.contains(el));
    };
    const onTriangle = [];
    for (let x = Math.ceil(card.left) + 1; x < text.left; x++) if (hits(x)) onTriangle.push(x);
    let besideCard = false;
    for (let x = Math.floor(card.left) - 1; x >= Math.max(0, card.left - 30); x--) if (hits(x)) besideCard = true;
    return {
      content: getComputedStyle(heading, "::before").content,
      onTriangle,
      besideCard,
      card: `${Math.round(card.left)}..${Math.round(text.left)}`,
    };
  }, id);
}

async function openFirstTwo(page) {
  await page.$$eval("details.community-faq-entry", (all) => {
    all.slice(0, 2).forEach((d) => { d.open = true; });
  });
}

/** Each group heading exists at its level, and lists the people with their links. */
async function expectGroups(page, groups) {
  for (const [id, level, people] of groups) {
    const heading = page.locator(`#${id}`);
    const tag = (await heading.count()) ? await heading.evaluate((h) => h.tagName) : null;
    expect(tag === level, `group heading #${id}: ${tag}, expected ${level}`);
    if (!tag) continue;
    expect(await heading.isVisible(), `group heading #${id} not visible`);
    const items = await page.evaluate((id) => {
      // The list right after the heading (and its description).
      let el = document.getElementById(id).nextElementSibling;
      while (el && el.tagName !== "UL" && !/^H[1-6]$/.test(el.tagName)) el = el.nextElementSibling;
      if (!el || el.tagName !== "UL") return [];
      return [...el.children].map((li) => {
        const a = li.querySelector("a");
        return { text: li.innerText, href: a && a.getAttribute("href"), visible: li.getClientRects().length > 0 };
      });
    }, id);
    for (const [name, href] of people) {
      const item = items.find((i) => i.text.startsWith(name));
      if (!expect(item, `#${id}: no "${name}" in ${JSON.stringify(items.map((i) => i.text))}`)) continue;
      expect(item.href === href, `#${id}: ${name} links to ${item.href}, expected ${href}`);
      expect(item.visible, `#${id}: ${name} not visible`);
    }
  }
}

function tableRows(page, selector) {
  return page.locator(selector).first().evaluate((table) =>
    [...table.querySelectorAll("tbody tr")].map((tr) => ({
      cells: [...tr.cells].map((td) => td.innerText.trim()),
      links: [...tr.querySelectorAll("a")].map((a) => a.getAttribute("href")),
      visible: tr.getClientRects().length > 0,
    })),
  );
}

function expectRow(rows, name, href, rest) {
  const row = rows.find((r) => r.cells.includes(name));
  if (!expect(row, `no table row for ${name}`)) return;
  const at = row.cells.indexOf(name);
  expect(JSON.stringify(row.cells.slice(at + 1, at + 1 + rest.length)) === JSON.stringify(rest),
    `row ${name}: ${JSON.stringify(row.cells)}, expected ${JSON.stringify([name, ...rest])}`);
  expect(row.links.includes(href), `row ${name}: links ${JSON.stringify(row.links)}, expected ${href}`);
  expect(row.visible, `row ${name} not visible`);
}

function hasLink(page, scope, text, href) {
  return page.evaluate(([scope, text, href]) =>
    [...document.querySelectorAll(scope)].some((el) =>
      [...el.querySelectorAll("a")].some((a) => a.textContent === text && a.getAttribute("href") === href)),
  [scope, text, href]);
}

/**
 * Readability in the current theme: the WCAG contrast ratio of the text of
 * FAQ questions, answers, maintainer lists and tables against the colour
 * behind it must be at least 4.5 (3 for the large question text).
 */
async function contrast(page, where) {
  const low = await page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const background = (el) => {
      // Blend the backgrounds from the page up to the element.
      const chain = [];
      for (let e = el; e; e = e.parentElement) chain.unshift(e);
      let bg = { r: 255, g: 255, b: 255 };
      for (const e of chain) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          bg = { r: c.r * c.a + bg.r * (1 - c.a), g: c.g * c.a + bg.g * (1 - c.a), b: c.b * c.a + bg.b * (1 - c.a) };
        }
      }
      return bg;
    };
    const lum = ({ r, g, b }) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const targets = [
      // Links elsewhere keep mdBook's own link colours, so only the text
      // this plugin styles, and the text around the links, is checked.
      ["details.community-faq-entry summary a.header", 4.5],
      ["details.community-faq-entry[open] > :not(summary)", 4.5],
      ["main li:has(> a[href^='https://github.com/'])", 4.5],
      ["main table td", 4.5],
    ];
    const out = [];
    for (const [sel, min] of targets) {
      for (const el of document.querySelectorAll(sel)) {
        if (!el.getClientRects().length || !el.textContent.trim()) continue;
        const fg = parse(getComputedStyle(el).color);
        const r = ratio(fg, background(el));
        if (r < min) out.push(`${sel} "${el.textContent.trim().slice(0, 40)}": contrast ${r.toFixed(2)} < ${min}`);
      }
    }
    // The disclosure triangle is how a reader tells a question can be
    // opened: WCAG asks 3:1 for such non-text contrast.
    for (const summary of document.querySelectorAll("details.community-faq-entry > summary")) {
      if (!summary.getClientRects().length) continue;
      const fg = parse(getComputedStyle(summary, "::marker").color);
      const r = ratio(fg, background(summary));
      if (r < 3) {
        out.push(`FAQ marker of "${summary.textContent.trim().slice(0, 40)}": contrast ${r.toFixed(2)} < 3`);
        break;
      }
    }
    return [...new Set(out)].slice(0, 5);
  });
  for (const l of low) expect(false, `${where}: ${l}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
