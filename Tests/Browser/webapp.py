#!/usr/bin/python3
"""Drives the web app of `vocab serve` in Debian's headless Chromium (selenium + chromedriver).

It starts the server itself (the offline part stops and restarts it on the same port), signs a
learner in, browses a category at a level, plays a clip, saves a word, reviews it with the
keyboard, sees progress change, reviews a due card while the server is down and checks the
queued rating is sent when it is back, and signs out; then the games (games.py): played signed out,
and signed in as the newcomer, each answer a review, offline too; then classes (classes.py): an
adult signs up, makes a class, three children sign in with pictures and practise. Screenshots of the main pages at phone and
desktop widths go to --screenshots when given. The last line is `RESULT {json}` with the
measured figures and the offline rating's clientId, which the calling test checks in user.sqlite.

Usage: webapp.py --vocab PATH --name NAME --password PW [--category animals --level starters
       --words cat,dog] [--newcomer NAME [--game-category farm]] [--screenshots DIR]   (VOCAB_HOME, VOCAB_CATEGORIES, VOCAB_AUDIO as for vocab)
"""
import argparse
import base64
import re
import json, os, shutil, signal, socket, subprocess, sys, tempfile, time, types, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from servers import VocabServer  # noqa: E402
import accessibility  # noqa: E402
import classes
import games

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

PHONE, DESKTOP = (390, 844), (1280, 900)




def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"ok: {message}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--category", default="animals")
    ap.add_argument("--level", default="starters")
    ap.add_argument("--words", default="cat,dog", help="two words of the category at the level")
    ap.add_argument("--moe", help="a title of the imported Mandarin dictionary to open from search")
    ap.add_argument("--newcomer", help="a learner with an empty library, signed in last: the first-time path, then the games")
    ap.add_argument("--game-category", help="a category with at least four pictured words at the level (default: --category)")
    ap.add_argument("--screenshots")
    ap.add_argument("--classes-only", action="store_true", help="only the class pages' walk (for working on them; no RESULT figures but its own)")
    args = ap.parse_args()
    first, second = args.words.split(",")[:2]

    # The offline steps stop it and start it again on the same port.
    server = VocabServer(args.vocab, args=["--log-level", "info"], log=os.path.join(tempfile.mkdtemp(prefix="vocab-serve-"), "serve.log"))
    server.start()
    base = server.url
    profiles = []

    def browser(size):
        # A browser of its own profile: nothing kept from an earlier visit (no language chosen, no
        # service worker, no week kept on the device).
        profile = tempfile.mkdtemp(prefix="vocab-chromium-")
        profiles.append(profile)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                     "--autoplay-policy=no-user-gesture-required", "--no-first-run", f"--window-size={size[0]},{size[1]}"]:
            options.add_argument(flag)
        # The network log too: a request that fails says when and how, beside the server's log.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)

    driver = browser(DESKTOP)
    # Pages are re-rendered as answers arrive: an element read mid-render is simply read again.
    # Upper bounds, not timings: a busy machine (the whole suite beside the browser) is slow, not wrong.
    wait = WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException])
    result = {}

    def shot(name):
        if not args.screenshots:
            return
        os.makedirs(args.screenshots, exist_ok=True)
        for label, (w, h) in (("phone", PHONE), ("desktop", DESKTOP)):
            driver.set_window_size(w, h)
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(args.screenshots, f"{name}-{label}.png"))
        driver.set_window_size(*DESKTOP)

    def fits_phone(name):
        # Responsive: at a phone's width (and the narrowest, 320 px) the page never scrolls sideways.
        for width in (PHONE[0], 320):
            driver.set_window_size(width, PHONE[1])
            wide = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if wide > 0:
                print("too wide:", driver.execute_script("""return [...document.querySelectorAll('main *')]
                    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth).slice(0, 5).map(e => e.outerHTML.slice(0, 90))"""))
            check(wide <= 0, f"the {name} page fits a {width} px phone")
        driver.set_window_size(*DESKTOP)
        # Every image has alternative text, every control a name, every field a label.
        unnamed = accessibility.unnamed(driver)
        check(not unnamed, f"the {name} page names every image, control and field: {unnamed}")
        accessible(name)

    axe_source = accessibility.axe_source()

    def accessible(name):
        # axe-core's rules (WCAG A and AA) on the page as it is now: no violation.
        found = accessibility.violations(driver, axe_source)
        check(not found, f"axe-core finds no violation on the {name} page: {found}")

    def explain(network):
        # What Chromium saw of each request that failed, and what the server logged, to tell a
        # network fault from a server's.
        events = [json.loads(e["message"])["message"] for e in network]
        failed = {e["params"]["requestId"] for e in events if e.get("method") == "Network.loadingFailed"}
        for e in events:
            if e.get("params", {}).get("requestId") in failed:
                print("network:", json.dumps(e)[:1500])
        print("server log:", server.read_log()[-6000:])

    def console_clean(step):
        # Every message the page logged since the last look; errors fail the walk.
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        network = driver.get_log("performance")
        if errors:
            explain(network)
        check(not errors, f"no JavaScript console errors {step}: {errors}")

    def ready():
        # A page loads in well under a second; a machine running the whole test suite beside the
        # browser may take far longer, which is not a failure of the page.
        WebDriverWait(driver, 90).until(lambda d: d.execute_script("return document.documentElement.dataset.ready === 'true'"))

    def heading():
        return wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "main h1"))).text

    def english_on_screen(on=None):
        # What a Vietnamese page must not show: a phrase of the English catalogue (the fixed parts
        # of a string between its {values}, where Vietnamese words it differently), a category's
        # id or a failure code. Words of the catalog itself (headwords, definitions) are content.
        return (on or driver).execute_async_script("""
            const done = arguments[arguments.length - 1];
            Promise.all([import('/i18n.js'), fetch('/v1/categories').then((r) => r.json())]).then(([{ STRINGS }, list]) => {
              const shown = document.body.innerText;
              const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
              const leaks = [];
              for (const [key, en] of Object.entries(STRINGS.en)) {
                for (const form of forms(en)) {
                  // The same in both, or the name of Vietnamese itself (the English page's switch).
                  if (forms(STRINGS.vi[key]).includes(form) || key.startsWith('language.')) continue;
                  const part = form.split(/\\{\\w+\\}/).map((p) => p.trim()).sort((a, b) => b.length - a.length)[0];
                  if (part.length >= 8 && part.includes(' ') && shown.includes(part)) leaks.push(`${key}: ${part}`);
                }
              }
              for (const c of list.categories) if (c.id.includes('-') && shown.includes(c.id)) leaks.push(`category id ${c.id}`);
              for (const m of shown.matchAll(/\\b[a-z]+_[a-z_]+\\b/g)) leaks.push(`code ${m[0]}`);
              done(leaks);
            });
        """)

    def vietnamese_walk(pages):
        # Each page loaded afresh in Vietnamese: not one English string, raw id or code on screen.
        for hash_, wait_for in pages:
            go(hash_)
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, wait_for))
            leaks = english_on_screen()
            check(not leaks, f"#{hash_} in Vietnamese shows no English string, id or code: {leaks}")

    def drawings_loaded(step, minimum=1):
        # Every picture file on the page arrived and decoded (a broken image has no width).
        WebDriverWait(driver, 60).until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('main img.drawing')].every((i) => i.complete)"))
        shown = driver.execute_script(
            "return [...document.querySelectorAll('main img.drawing')].map((i) => [i.getAttribute('src'), i.naturalWidth])")
        broken = [src for src, width in shown if not width]
        check(len(shown) >= minimum and not broken,
              f"{step}: {len(shown)} picture files loaded, none broken (at least {minimum}): broken {broken}")
        return len(shown)

    def go(hash_):
        # A full load each time (a new hash alone would not reload the page).
        driver.get("about:blank")
        driver.get(f"{base}/#{hash_}")
        ready()

    game_category = args.game_category or args.category
    play = types.SimpleNamespace(driver=driver, wait=wait, check=check, go=go, fits_phone=fits_phone, shot=shot,
                                 console_clean=console_clean, server=server, accessible=accessible, heading=heading,
                                 browser=browser, base=base, english_on_screen=english_on_screen,
                                 screenshots=args.screenshots, drawings_loaded=drawings_loaded)
    try:
        if args.classes_only:
            result.update(classes.walk(play, args.category, args.level, game_category))
            return
        # The first visit: page weight (bytes over the wire, gzip) and time until the page is usable.
        driver.get(base + "/")
        ready()
        perf = driver.execute_script("""
            const nav = performance.getEntriesByType('navigation')[0];
            const res = performance.getEntriesByType('resource').filter(r => !r.name.includes('/v1/'));
            return {ready: performance.getEntriesByName('vocab-ready')[0].startTime,
                    shell: nav.transferSize + res.reduce((a, r) => a + r.transferSize, 0),
                    api: performance.getEntriesByType('resource').filter(r => r.name.includes('/v1/')).reduce((a, r) => a + r.transferSize, 0)};
        """)
        result.update(firstPageBytes=perf["shell"] + perf["api"], shellBytes=perf["shell"], timeToUsableMs=round(perf["ready"]))
        check(perf["shell"] + perf["api"] < 100_000, f"first page {perf['shell'] + perf['api']} bytes transferred (< 100 KB)")
        check(driver.find_elements(By.CSS_SELECTOR, ".tile"), "the categories grid is shown")
        gaps = driver.execute_async_script("const done = arguments[arguments.length - 1]; import('/i18n.js').then((m) => done(m.missing()));")
        check(gaps == [], f"the English and Vietnamese catalogues have the same strings, none empty: {gaps}")

        # The level switch filters everything; the choice is a labelled radio button.
        driver.find_element(By.CSS_SELECTOR, f'input[name="level"][value="{args.level}"]').click()
        wait.until(lambda d: args.level.capitalize() in d.find_element(By.CSS_SELECTOR, "main p").text)
        tile = driver.find_element(By.CSS_SELECTOR, f'a.tile[href="#/category/{args.category}"]')
        check(tile.find_element(By.CSS_SELECTOR, ".emoji").get_attribute("aria-hidden") == "true", "the emoji is decoration; the name is the label")
        shot("categories")
        fits_phone("categories")
        # The service worker is in charge before the page opens, so it can fetch the page's clips.
        wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        tile.click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "ul.cards li"))
        words = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "ul.cards h2")]
        # Every clip of the page is fetched ahead of a tap (and kept for offline), none played yet.
        kept = "return Promise.all(arguments[0].map(async (w) => !!(await (await caches.open('vocab-data-v1')).match(`/v1/audio/${encodeURIComponent(w)}?accent=british&format=ogg`))))"
        WebDriverWait(driver, 60).until(lambda d: all(d.execute_script(kept, words)))
        check(True, f"the {len(words)} clips of the category page were fetched ahead and kept before any tap")
        check(first in words, f"the category at {args.level} lists {first}: {words[:6]}")
        pictures = driver.find_elements(By.CSS_SELECTOR, f'ul.cards .picture[role="img"][aria-label="{first}"]')
        # A picture file where the word has one (loaded: not a broken image), else its emoji.
        drawn = pictures and driver.execute_script(
            "const i = arguments[0].querySelector('img'); return i ? (i.complete && i.naturalWidth > 0 ? i.getAttribute('src') : 'broken') : null",
            pictures[0])
        check(pictures and (pictures[0].text.strip() or (drawn and drawn != "broken")),
              f"{first}'s card leads with its picture: {drawn or (pictures[0].text if pictures else None)}")
        for w in driver.find_elements(By.CSS_SELECTOR, "ul.cards button.play"):
            r = w.rect
            assert r["height"] >= 44 and r["width"] >= 44, f"play button {r} smaller than 44 px"
        check(True, "play buttons are at least 44 x 44 px")
        shot("category")
        fits_phone("category")

        # Play a clip: the audio element loads it and knows its duration.
        driver.find_element(By.CSS_SELECTOR, f'button.play[aria-label="Play {first}, British"]').click()
        wait.until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.readyState >= 1 && p.duration > 0"))
        duration = driver.execute_script("return document.getElementById('player').duration")
        check(duration > 0, f"the British clip of {first} loaded: {duration:.2f} s")
        # The slow button: the same word, spoken at three quarters of the pace (a longer clip).
        driver.execute_script("document.getElementById('player').removeAttribute('src'); document.getElementById('player').load()")
        driver.find_element(By.CSS_SELECTOR, f'button.play.slow[aria-label="Play {first} slowly"]').click()
        wait.until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.readyState >= 1 && p.duration > 0"))
        slow = driver.execute_script("return document.getElementById('player').duration")
        src = driver.execute_script("return document.getElementById('player').currentSrc")
        check("speed=0.75" in src and slow > duration, f"the slow button plays {first} slower: {slow:.2f} s against {duration:.2f} s")
        links = driver.find_elements(By.CSS_SELECTOR, "ul.cards h2 a")
        check(links and min(l.rect["height"] for l in links) >= 44, f"word links are at least 44 px tall: {min(l.rect['height'] for l in links)}")

        # The category as a word list to print: every word at the level, with its picture, and
        # nothing of the page around it (Chromium's own print to PDF, read back by pdftotext).
        go(f"/print/{args.category}")
        wait.until(EC.visibility_of_element_located((By.ID, "print-list")))
        drawings_loaded("the printed list")
        fits_phone("print")
        shot("print")
        pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"])
        pdf_path = os.path.join(profiles[0], "print.pdf")
        open(pdf_path, "wb").write(pdf)
        text = subprocess.run(["pdftotext", "-layout", pdf_path, "-"], capture_output=True, text=True, check=True).stdout
        pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", pdf_path], capture_output=True, text=True, check=True).stdout).group(1))
        listed = driver.execute_script(f"return (await (await fetch('/v1/categories/{args.category}/words?level={args.level}&limit=1000')).json()).words.map(w => w.word)")
        missing = [w for w in listed if w not in text]
        check(not missing and "Search" not in text and "Sign in" not in text,
              f"the printed list holds all {len(listed)} words on {pages} page(s), without the header: missing {missing}")
        result["printPages"] = pages
        # The drawings are on the paper too: page 1 drawn at 40 dpi holds more ink than the same
        # page printed with its pictures hidden.
        def ink(path):
            ppm = subprocess.run(["pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-gray", path], capture_output=True, check=True).stdout
            width, height = map(int, ppm.split(b"\n")[1].split())
            return sum(1 for v in ppm[-width * height:] if v < 160) / (width * height)
        driver.execute_script("for (const i of document.querySelectorAll('main img.drawing')) i.style.visibility = 'hidden'")
        bare_path = os.path.join(profiles[0], "print-bare.pdf")
        open(bare_path, "wb").write(base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"]))
        drawn, bare = ink(pdf_path), ink(bare_path)
        check(drawn > bare * 1.02, f"the printed page carries its drawings: ink on {drawn:.2%} of page 1, {bare:.2%} without them")
        # A game's address names its level: the header's level buttons follow it, and choosing
        # another level there moves the game to it.
        other = next(l for l in ("movers", "flyers", "starters") if l != args.level)
        go(f"/play/{game_category}?level={other}")
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "a.game-tile")))
        checked = driver.execute_script("return document.querySelector('input[name=level]:checked')?.value")
        check(checked == other, f"the header's level follows the game's address (?level={other}): {checked}")
        driver.find_element(By.CSS_SELECTOR, f'input[name="level"][value="{args.level}"]').click()
        wait.until(lambda d: d.current_url.endswith(f"#/play/{game_category}?level={args.level}"))
        wait.until(lambda d: f'?level={args.level}' in d.find_element(By.CSS_SELECTOR, "a.game-tile").get_attribute("href"))
        check(True, f"choosing {args.level} in the header moves the games to it")
        # Who made the pictures and voices: a link at the foot of every page, a page naming each
        # set with its licence (CC BY-SA asks for it where the pictures are shown), with a drawing.
        link = driver.find_element(By.CSS_SELECTOR, 'footer a[href="#/credits"]')
        check(link.rect["height"] >= 44, f"the foot of the page links the credits: {link.text!r}")
        go("/credits")
        credits = driver.find_element(By.TAG_NAME, "main").text
        licences = [a.text for a in driver.find_elements(By.CSS_SELECTOR, 'main a[rel="license"]')]
        check(all(n in credits for n in ("OpenMoji", "Mulberry", "Art4Apps", "GCompris", "hibari-tts", "eSpeak NG"))
              and licences.count("CC BY-SA 4.0") == 2 and "CC BY-SA 3.0" in licences and "CC BY-ND 3.0 TW" in licences,
              f"the credits name both picture sets, the people's voices and the computer voices with their licences: {licences}")
        drawings_loaded("the credits page", 2)
        fits_phone("credits")
        accessible("credits")
        console_clean("while browsing signed out")
        # The games, signed out: played to the end, nothing rated.
        games.signed_out(play, game_category, args.level)
        # Sign in with name and password.
        go("/signin")
        fits_phone("sign-in")
        driver.find_element(By.ID, "name").send_keys(args.name)
        driver.find_element(By.ID, "password").send_keys("wrong password!!")
        driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
        wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "form.signin .error")))
        check(True, "a wrong password is refused with a message")
        driver.get_log("browser")   # the refused sign-in's 401 is the point of that step
        pw = driver.find_element(By.ID, "password")
        pw.clear()
        pw.send_keys(args.password + Keys.ENTER)
        wait.until(lambda d: d.current_url.endswith("#/review"))
        ready()
        cookies = driver.get_cookies()
        session = [c for c in cookies if c["name"] == "vocab_session"]
        check(session and session[0]["httpOnly"] and session[0].get("sameSite") == "Strict", "signed in: an HttpOnly, SameSite=Strict cookie")
        check(driver.execute_script("return document.cookie").find("vocab_session") < 0, "scripts cannot read the session cookie")

        # Progress before.
        go("/progress")
        heading()
        before = int(driver.find_element(By.ID, "items").text)

        # Save two words from their pages.
        for word in (first, second):
            go(f"/word/{word}")
            wait.until(EC.element_to_be_clickable((By.ID, "save"))).click()
            wait.until(lambda d: "Saved" in d.find_element(By.ID, "status").text)
            wait.until(lambda d: d.find_element(By.ID, "save").text == "Saved ✓")
        check(True, f"saved {first} and {second} from their word pages; the button says so")
        go(f"/word/{first}")
        heading()
        # The fixture's cat has a recording (the recorded tier) for British only: the page says a
        # person says it, and the UK button shows it.
        note = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "main .card p.voice")))
        people = [b.get_attribute("data-accent") for b in driver.find_elements(By.CSS_SELECTOR, "main .card .plays button.person")]
        check("A person says" in note.text and people == ["british"], f"{first}'s page says whose voice it is: {note.text!r}, {people}")
        shot("word")
        fits_phone("word")
        go("/library")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "ul.cards li")) == before + 2)
        check(True, "my library lists them")

        # Review with the keyboard alone. The card says its word before its answer is shown (a
        # child who cannot read answers by ear), with buttons to hear it again and slowly; Space
        # shows the answer, 3 rates Good.
        go("/review")
        front = wait.until(EC.visibility_of_element_located((By.ID, "front"))).text
        wait.until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.dataset.word === arguments[0] && p.readyState >= 1 && p.duration > 0", front))
        check(not driver.find_elements(By.ID, "back"), f"the card said {front} before its answer was shown")
        plays = driver.find_elements(By.CSS_SELECTOR, "section.review button.play")
        check(len(plays) == 3 and any("slow" in (b.get_attribute("class") or "") for b in plays) and all(b.rect["height"] >= 44 for b in plays),
              f"the front has buttons to hear it again and slowly: {[b.text for b in plays]}")
        check(driver.find_element(By.ID, "card-sound").is_selected(), "an adult's switch for the card's sound is there, on")
        # The two new cards are cat (drawn) and dog (no picture), in either order: cat's drawing
        # is checked on whichever card it is.
        if front == first:
            drawings_loaded(f"the review card of {first}")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.SPACE)
        wait.until(EC.visibility_of_element_located((By.ID, "back")))
        check(True, f"Space revealed {front}")
        labels = [b.text.split("\n")[0] for b in driver.find_elements(By.CSS_SELECTOR, ".ratings button")]
        check([l.split(" ", 1)[1] for l in labels] == ["Try again", "Tricky", "Got it", "Easy"], f"the ratings in a child's words: {labels}")
        shot("review")
        fits_phone("review")
        driver.switch_to.active_element.send_keys("3")
        wait.until(lambda d: d.find_element(By.ID, "front").text != front if d.find_elements(By.ID, "front") else d.find_elements(By.ID, "done"))
        check(True, f"3 rated {front} Good and the next card came")
        if front != first:
            check(driver.find_element(By.ID, "front").text == first, f"the second card is {first}")
            drawings_loaded(f"the review card of {first}")

        go("/progress")
        heading()
        after_reviews = driver.find_element(By.ID, "reviews-total").text
        check(int(driver.find_element(By.ID, "items").text) == before + 2 and after_reviews.startswith("1 review"),
              f"progress changed: {after_reviews}")
        charts = driver.find_elements(By.CSS_SELECTOR, "main svg.chart[role=img]")
        check(len(charts) >= 3 and all(c.get_attribute("aria-label") for c in charts),
              f"{len(charts)} charts drawn, each with a text label")
        # Their text as shown on a phone: font size times the scale the chart is drawn at.
        driver.set_window_size(*PHONE)
        time.sleep(0.3)
        sizes = driver.execute_script("""
            return [...document.querySelectorAll('main svg.chart text')]
              .filter((t) => getComputedStyle(t).display !== 'none' && t.getBBox().width > 0)
              .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);""")
        driver.set_window_size(*DESKTOP)
        check(sizes and min(sizes) >= 12, f"chart labels are at least 12 px on a {PHONE[0]} px phone: {len(sizes)} labels, the smallest {min(sizes or [0]):.1f} px")
        result["chartLabelMinPx"] = round(min(sizes), 1)
        table = driver.find_element(By.CSS_SELECTOR, "main table").text
        check("Animals" in table and "animals" not in table.split(), f"progress names categories, not their ids: {table[:80]!r}")
        check("null" not in driver.find_element(By.TAG_NAME, "main").text, "no page part prints as 'null'")
        shot("progress")
        fits_phone("progress")

        console_clean("signed in: saving, reviewing, progress")
        # Offline: the shell from the service worker, a due card from the last queue, the rating
        # queued and sent once the server is back.
        go("/review")
        wait.until(EC.visibility_of_element_located((By.ID, "front")))
        wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        server.stop()
        go("/review")
        offline_front = wait.until(EC.visibility_of_element_located((By.ID, "front"))).text
        check("Offline" in driver.find_element(By.ID, "status").text, f"offline, the shell loads and {offline_front} is shown")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
        wait.until(EC.visibility_of_element_located((By.ID, "back")))
        driver.switch_to.active_element.send_keys("3")
        wait.until(lambda d: "will be sent" in d.find_element(By.ID, "status").text)
        client_id = driver.execute_script("""
            return await new Promise((resolve, reject) => {
              const r = indexedDB.open('vocab', 1);
              r.onsuccess = () => { const q = r.result.transaction('ratings').objectStore('ratings').getAll();
                                    q.onsuccess = () => resolve(q.result.map(x => x.clientId)); };
              r.onerror = () => reject(r.error);
            });""")
        check(len(client_id) == 1, f"the rating waits in IndexedDB: {client_id}")
        result["offlineClientId"] = client_id[0]
        go("/")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile")) > 0)
        check(True, "offline, the categories come from the service worker's cache")
        server.start()
        for _ in range(2):   # reloading again must not send it twice
            go("/progress")
            wait.until(lambda d: d.execute_script("""
                return new Promise(resolve => { const r = indexedDB.open('vocab', 1);
                  r.onsuccess = () => { const q = r.result.transaction('ratings').objectStore('ratings').count();
                                        q.onsuccess = () => resolve(q.result === 0); }; });"""))
        heading()
        check(driver.find_element(By.ID, "reviews-total").text.startswith("2 review"), "back online, the queued rating arrived")

        driver.get_log("browser")   # requests that failed while the server was down are the point of that step

        # Mandarin, signed in: one Save button per reading of the entry; the saved reading comes
        # to review with its characters big, pinyin and bopomofo, its senses and its speech.
        if args.moe:
            go(f"/moe/{args.moe}")
            buttons = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".moe button.save-reading"))
            readings = [b.get_attribute("data-reading") for b in buttons]
            check(len(readings) == len(driver.find_elements(By.CSS_SELECTOR, ".moe .reading")) and all(readings),
                  f"the Mandarin entry {args.moe} has a Save button for each reading: {readings}")
            chosen = readings[0]
            buttons[0].click()
            wait.until(lambda d: "✓" in d.find_element(By.CSS_SELECTOR, f'.moe button.save-reading[data-reading="{chosen}"]').text)
            saved = driver.execute_script("return (await (await fetch('/v1/me/library')).json()).items.filter(i => i.source === 'moe').map(i => i.item)")
            check(saved == [f"moe:{args.moe}#{chosen}"], f"the reading {chosen} of {args.moe} is saved, and only it: {saved}")
            go(f"/moe/{args.moe}")
            button = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f'.moe button.save-reading[data-reading="{chosen}"]'))
            check(not button.is_enabled() and "✓" in button.text, f"the entry's page shows {chosen} saved: {button.text!r}")
            for b in driver.find_elements(By.CSS_SELECTOR, ".moe button"):
                assert b.rect["height"] >= 44 and b.rect["width"] >= 44, f"a Mandarin button {b.text!r} {b.rect} smaller than 44 px"
            shot("mandarin-signed-in")
            fits_phone("Mandarin entry, signed in")
            go("/review")
            front = wait.until(EC.visibility_of_element_located((By.ID, "front")))
            check(front.text == args.moe and front.get_attribute("lang") == "zh-Hant", f"the Mandarin card comes to review: {front.text!r}")
            size = float(driver.execute_script("return parseFloat(getComputedStyle(document.getElementById('front')).fontSize)"))
            check(size >= 48, f"its characters are big: {size:.0f} px")
            check("null" not in driver.find_element(By.TAG_NAME, "main").text, "a card without a picture prints no 'null'")
            # The card says its reading as it appears, before the answer.
            wait.until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.readyState >= 1 && p.duration > 0"))
            src = driver.execute_script("return document.getElementById('player').currentSrc")
            check(f"/v1/moe/" in src and "/audio" in src and "reading=" in src and not driver.find_elements(By.ID, "back"),
                  f"the card said its reading before the answer: {src}")
            buttons = driver.find_elements(By.CSS_SELECTOR, "section.review button.play")
            check(len(buttons) == 2 and all(b.rect["height"] >= 44 for b in buttons), f"▶ and 🐢 buttons replay it: {[b.text for b in buttons]}")
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
            back = wait.until(EC.visibility_of_element_located((By.ID, "back")))
            pinyin = driver.find_element(By.ID, "pinyin").text
            senses = [e.text for e in back.find_elements(By.CSS_SELECTOR, 'p[lang="zh-Hant"]')]
            check(chosen in pinyin and re.search("[\u3105-\u312f]", pinyin) and senses and all(senses),
                  f"the answer shows pinyin and bopomofo ({pinyin}) and {len(senses)} sense(s): {senses[0] if senses else None}")
            shot("review-mandarin")
            fits_phone("Mandarin review")
            driver.switch_to.active_element.send_keys("3")
            wait.until(lambda d: not d.find_elements(By.ID, "front") or d.find_element(By.ID, "front").text != args.moe)
            check(True, f"3 rated {args.moe} Good")
            # Every reading at once: the entry's "save all" button saves the readings not saved yet.
            go(f"/moe/{args.moe}")
            save_all = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".moe button.save-all")))
            count = len(driver.find_elements(By.CSS_SELECTOR, ".moe .reading"))
            check(str(count) in save_all.text, f"a title with {count} readings offers to save them all: {save_all.text!r}")
            save_all.click()
            wait.until(lambda d: "✓" in d.find_element(By.CSS_SELECTOR, ".moe button.save-all").text)
            saved = driver.execute_script("return (await (await fetch('/v1/me/library')).json()).items.filter(i => i.source === 'moe').map(i => i.item)")
            check(len(saved) == count and all(s.startswith(f"moe:{args.moe}#") for s in saved), f"every reading of {args.moe} is saved: {saved}")
            check(all(not b.is_enabled() for b in driver.find_elements(By.CSS_SELECTOR, ".moe button.save-reading")),
                  "each reading's own button now says it is saved")
            console_clean("saving and reviewing Mandarin")

        # The interface language is the learner's: chosen signed in, it is kept on the server, so
        # signing in again on a device that forgot everything brings it back.
        # Chosen while the server is down, the choice waits on the device and is sent when it is back.
        go("/")
        server.stop()
        driver.find_element(By.ID, "language").click()
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "vi")
        wait.until(lambda d: d.execute_script("return localStorage.getItem('vocab.lang.pending')"))
        check('"vi"' in driver.execute_script("return localStorage.getItem('vocab.lang.pending')"),
              "switching to Vietnamese signed in with the server down: the choice waits on the device")
        server.start()
        go("/")
        wait.until(lambda d: d.execute_script("return localStorage.getItem('vocab.lang.pending')") is None)
        stored = driver.execute_script("return (await (await fetch('/v1/me')).json()).settings.language")
        check(stored == "vi", f"back online, the choice was sent and kept for the learner (PATCH /v1/me/settings): {stored}")
        driver.get_log("browser")   # requests that failed while the server was down are the point of that step
        driver.find_element(By.ID, "signout").click()
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'nav a[href="#/signin"]').is_displayed())
        driver.execute_script("localStorage.clear()")
        go("/")
        check(driver.execute_script("return document.documentElement.lang") == "en",
              "signed out on a device that forgot its choice, the browser's language (English) is used")
        go("/signin")
        driver.find_element(By.ID, "name").send_keys(args.name)
        driver.find_element(By.ID, "password").send_keys(args.password + Keys.ENTER)
        wait.until(lambda d: d.current_url.endswith("#/review"))
        ready()
        nav = driver.find_element(By.CSS_SELECTOR, 'nav a[href="#/"]').text
        check(driver.execute_script("return document.documentElement.lang") == "vi" and nav == "Chủ đề",
              f"signed in again, the interface is Vietnamese: nav {nav!r}, heading {heading()!r}")
        vietnamese_walk([
            ("/review", "#front, #done, #start"), ("/library", "main h1"), ("/progress", "main h1"), ("/", "a.tile"),
            (f"/category/{args.category}", "ul.cards li"), (f"/word/{first}", "main .card"), (f"/search/{first}", "li.result"),
            (f"/play/{game_category}?level={args.level}", "#games a.tile"), (f"/play/listen/{game_category}?level={args.level}", "#counter"),
            (f"/play/match/{game_category}?level={args.level}", "#game"), ("/search/zzzzqx", "#search-summary"), ("/nowhere", "main h1"),
            ("/credits", "ul.credits"),
        ])
        console_clean("walking every page in Vietnamese")
        driver.find_element(By.ID, "language").click()
        wait.until(lambda d: d.execute_script("return (await (await fetch('/v1/me')).json()).settings.language") == "en")
        check(driver.find_element(By.CSS_SELECTOR, 'nav a[href="#/"]').text == "Categories", "and back to English, on the server too")
        console_clean("switching language signed in")

        # Sign out: the cookie is gone and my pages ask to sign in again.
        driver.find_element(By.ID, "signout").click()
        wait.until(lambda d: "Signed out" in d.find_element(By.ID, "status").text)
        check(not [c for c in driver.get_cookies() if c["name"] == "vocab_session"], "signed out: the cookie is cleared")
        go("/library")
        wait.until(lambda d: d.current_url.endswith("#/signin"))
        check(True, "my library asks to sign in again")
        # One search box in the header, reached from the keyboard: a catalog word.
        go("/")
        box = driver.find_element(By.ID, "search-q")
        label = driver.execute_script("return document.getElementById('search-q').labels[0]?.textContent.trim() ?? ''")
        check(box.find_element(By.XPATH, "ancestor::header") and label, f"the search box in the header is labelled: {label}")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        for _ in range(40):   # past the category tiles, whose number depends on the catalog
            if driver.switch_to.active_element.get_attribute("id") == "search-q":
                break
            driver.switch_to.active_element.send_keys(Keys.TAB)
        check(driver.switch_to.active_element.get_attribute("id") == "search-q", "the search box is reached with Tab")
        driver.switch_to.active_element.send_keys(first, Keys.ENTER)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "li.result"))
        hit = driver.find_element(By.CSS_SELECTOR, 'li.result[data-source="catalog"] a')
        check(hit.text == first and hit.get_attribute("href").endswith(f"#/word/{first}"),
              f"searching {first} finds the catalog word first, labelled by source: {driver.find_element(By.ID, 'search-summary').text}")
        shot("search")
        fits_phone("search")
        check("null" not in driver.find_element(By.TAG_NAME, "main").text, "a one-page search prints no 'null'")
        card = driver.find_element(By.CSS_SELECTOR, 'li.result[data-source="catalog"]')
        pictured = driver.execute_script("return (await (await fetch('/v1/words/' + encodeURIComponent(arguments[0]))).json()).entries[0].picture ?? null", first)
        check(not pictured or card.find_element(By.CSS_SELECTOR, ".picture").text == pictured,
              f"a catalog result shows its picture first: {pictured}")
        check(card.find_elements(By.CSS_SELECTOR, "button.play"), "a catalog result plays its word")
        jargon = [w for w in ("headword", "result(s)", "translation", "prefix") if w in driver.find_element(By.TAG_NAME, "main").text]
        check(not jargon, f"the results say no jargon: {jargon}")
        hit.click()
        # The search page's own h1 is visible until the word page replaces it: wait for the word.
        try:
            wait.until(lambda d: heading() == first)
        except Exception:
            pass
        check(heading() == first, f"the result opens the word page of {first}")

        # A Mandarin entry, found by the same box: its page, readings with senses, radical and
        # strokes, and its speech.
        if args.moe:
            box = driver.find_element(By.ID, "search-q")
            box.clear()
            box.send_keys(args.moe, Keys.ENTER)
            result_link = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, 'li.result[data-source="moe"] a')))
            reference = result_link.find_element(By.XPATH, "ancestor::li").get_attribute("data-reference")
            check(result_link.text == args.moe and reference == f"moe:{args.moe}", f"searching {args.moe} finds the Mandarin entry {reference}")
            result_link.click()
            han = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".moe .han"))).text
            readings = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".moe .reading h2")]
            senses = driver.find_elements(By.CSS_SELECTOR, ".moe .reading li")
            radical = driver.find_element(By.CSS_SELECTOR, ".moe .han + p").text
            check(han == args.moe and readings and all(readings) and senses and "Radical" in radical and "strokes" in radical,
                  f"the Mandarin entry {han}: readings {readings}, {len(senses)} senses, {radical}")
            shot("mandarin")
            driver.execute_script("document.getElementById('player').removeAttribute('src'); document.getElementById('player').load()")
            driver.find_element(By.CSS_SELECTOR, ".moe .reading button.play").click()
            wait.until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.readyState >= 1 && p.duration > 0"))
            duration = driver.execute_script("return document.getElementById('player').duration")
            src = driver.execute_script("return document.getElementById('player').currentSrc")
            check(duration > 0 and "/audio" in src, f"the Mandarin speech of {han} loaded: {duration:.2f} s from {src}")
        console_clean("signed out, searching and in the Mandarin dictionary")

        # The family's language: one tap switches the whole interface to Vietnamese, and back.
        go("/")
        driver.find_element(By.ID, "language").click()
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "vi")
        nav = driver.find_element(By.CSS_SELECTOR, 'nav a[href="#/"]').text
        title = heading()
        check(nav == "Chủ đề" and title == "Chủ đề", f"the interface speaks Vietnamese: nav {nav!r}, heading {title!r}")
        accessible("Vietnamese categories")
        shot("categories-vi")
        go(f"/category/{args.category}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "ul.cards li"))
        uk = driver.find_element(By.CSS_SELECTOR, "ul.cards button.play").text
        check(uk == "▶ Anh", f"play buttons in Vietnamese after a reload (the choice is kept): {uk!r}")
        fits_phone("Vietnamese category")
        driver.find_element(By.ID, "language").click()
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
        check(driver.find_element(By.CSS_SELECTOR, 'nav a[href="#/"]').text == "Categories", "and back to English")

        # A new learner: review offers a way in, not "all done"; one tap adds a starter set.
        if args.newcomer:
            go("/signin")
            driver.find_element(By.ID, "name").send_keys(args.newcomer)
            driver.find_element(By.ID, "password").send_keys(args.password + Keys.ENTER)
            start = wait.until(EC.visibility_of_element_located((By.ID, "start")))
            check(not driver.find_elements(By.ID, "done"), "a new learner's review starts with a way in, not 'All done'")
            shot("start")
            fits_phone("start")
            driver.find_element(By.CSS_SELECTOR, 'button.tile[data-set="animals"]').click()
            first_card = wait.until(EC.visibility_of_element_located((By.ID, "front"))).text
            check("Let's practise" in driver.find_element(By.ID, "status").text, f"one tap added the animals and review began with {first_card}")
            go("/library")
            added = len(wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "ul.cards li")))
            listed = driver.execute_script(f"return (await (await fetch('/v1/categories/animals/words?level={args.level}&limit=1000')).json()).words.map(w => w.id)")
            stored = driver.execute_script("return (await (await fetch('/v1/me/library')).json()).items.map(i => i.entry)")
            check(added == len(listed) and sorted(stored) == sorted(listed),
                  f"a starter set of {len(listed)} entries added exactly those entries, no other sense of their words: {added} items")
            console_clean("on the first-time path")
            # The games, signed in: each answer a review, offline too.
            result.update(games.signed_in(play, game_category, args.level))
            driver.find_element(By.ID, "signout").click()
            wait.until(lambda d: "Signed out" in d.find_element(By.ID, "status").text)

        # Classes (issue 30): an adult signs up, makes a class, imports three children, sets words;
        # each child signs in with pictures and plays; the adult sees their progress (classes.py).
        result.update(classes.walk(play, args.category, args.level, game_category))
    except BaseException:
        # What the page showed and logged when the walk stopped, and what the network and the
        # server saw: a failure says where it happened without a second run.
        try:
            print("page at the failure:", driver.current_url, driver.find_element(By.TAG_NAME, "main").text[:800])
            print("console:", [e["message"] for e in driver.get_log("browser")][-10:])
            explain(driver.get_log("performance"))
        except Exception as e:
            print("could not read the page:", e)
        raise
    finally:
        driver.quit()
        server.stop()
        for profile in profiles:
            shutil.rmtree(profile, ignore_errors=True)
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
