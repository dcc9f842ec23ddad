"""Classes in the browser (issue 30), at a phone's width: an adult signs up, makes a class, imports
three children from a CSV file, adds and deletes a fourth, gives one new pictures, sets a topic at a
level and prints the sign-in cards (Chromium's print to PDF, read back by pdftotext). Each child then
signs in on the same device with the class code, their first name and their pictures (one wrong try
first, answered gently), finds this week's words, reviews them and plays a game round; the adult
signs in again and sees the three children's progress, the words they got wrong and who finished.
Called by webapp.py with its helpers (`w`); returns figures for the RESULT line."""
import base64
import datetime
import os
import re
import subprocess
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

import games
from games import css, one, phone, looked_at

ADULT, PASSWORD = "Ms Lan", "correct horse battery"
CHILDREN = ["Minh Anh", "Bảo", "Khoa"]


def status(w):
    return one(w, "#status").text


def shown(w, selector):
    return [e for e in css(w, selector) if e.is_displayed()]


def children(w):
    """The children on the class page: name → their pictures when the page shows them."""
    return {c.get_attribute("data-name"): [int(x) for x in (c.get_attribute("data-pictures") or "").split(",") if x]
            for c in css(w, "#children li.child")}


def shot_at(w, name, selector):
    """A screenshot at phone and desktop widths scrolled to `selector` (the header takes a phone's first screen)."""
    if not w.screenshots:
        return
    os.makedirs(w.screenshots, exist_ok=True)
    for label, size in (("phone", games.PHONE), ("desktop", (1280, 900))):
        w.driver.set_window_size(*size)
        w.driver.execute_script(f"document.querySelector('{selector}').scrollIntoView()")
        time.sleep(0.3)
        w.driver.save_screenshot(os.path.join(w.screenshots, f"{name}-{label}.png"))
    phone(w)


def targets_big_enough(w, name):
    small = w.driver.execute_script("""
        return [...document.querySelectorAll('main button, main a.button, main input, main select, main summary')]
          .filter(e => e.offsetParent && e.type !== 'radio' && e.type !== 'file'
                       && (e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44))
          .map(e => e.outerHTML.slice(0, 70));""")
    w.check(not small, f"every target of the {name} page is at least 44 x 44 px: {small}")


def fits_table(w):
    # The progress table is read at a phone's width without scrolling sideways inside it either.
    phone(w)
    wide = w.driver.execute_script("const t = document.querySelector('.table-wrap'); return t.scrollWidth - t.clientWidth")
    w.check(wide <= 0, f"the progress table fits a 390 px phone ({wide} px over)")


def sign_up(w):
    phone(w)
    w.go("/signin")
    w.wait.until(EC.element_to_be_clickable((By.ID, "to-signup")))
    w.check(one(w, "#to-kids").rect["height"] >= 44, "the sign-in page offers a child's way in and an adult's new account")
    one(w, "#to-signup").click()
    name = w.wait.until(EC.visibility_of_element_located((By.ID, "signup-name")))
    looked_at(w, "sign-up")
    name.send_keys(ADULT)
    one(w, "#signup-password").send_keys(PASSWORD + Keys.ENTER)
    w.wait.until(lambda d: d.current_url.endswith("#/classes"))
    one(w, "#no-classes")
    w.check(shown(w, 'nav a[href="#/classes"]') and not shown(w, "nav [data-home] a"),
            f"{ADULT} signed up in the browser and is signed in: the navigation has Classes")
    looked_at(w, "classes (none yet)")


def make_class(w, name):
    one(w, "#class-name").send_keys(name + Keys.ENTER)
    w.wait.until(lambda d: "#/class/" in d.current_url)
    code = w.wait.until(EC.visibility_of_element_located((By.ID, "class-code"))).text
    size = float(w.driver.execute_script("return parseFloat(getComputedStyle(document.getElementById('class-code')).fontSize)"))
    w.check(re.fullmatch(r"[A-Z2-9]{6}", code) and code in status(w) and size >= 32,
            f"made {name}: the class code {code} is shown big ({size:.0f} px)")
    return code


def import_roster(w, code):
    path = os.path.join(tempfile.mkdtemp(prefix="vocab-roster-"), "children.csv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("name\n" + "\n".join(CHILDREN) + "\n")
    one(w, "#roster-file").send_keys(path)
    w.wait.until(lambda d: "Khoa" in one(w, "#roster").get_attribute("value"))
    one(w, "#add-roster button[type=submit]").click()
    w.wait.until(lambda d: len(children(w)) == 3 and all(len(p) == 3 for p in children(w).values()))
    found = children(w)
    w.check(sorted(found) == sorted(CHILDREN) and all(len(set(p)) == 3 and all(0 <= i <= 8 for i in p) for p in found.values()),
            f"a CSV file of three first names added three children, each shown with 3 pictures: {found}")
    names = [e.text for e in css(w, '#children li.child[data-name="Bảo"] .pic-name')]
    w.check(len(names) == 3 and all(names) and one(w, "#print-cards"), f"the pictures are shown with their names, in order: {names}")
    return found


def add_and_erase(w, code):
    one(w, "#child-name").send_keys("Extra" + Keys.ENTER)
    w.wait.until(lambda d: "Extra" in children(w))
    card = one(w, '#children li.child[data-name="Extra"]')
    card.find_element(By.CSS_SELECTOR, 'button[data-action="erase"]').click()
    cancel = w.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, '#children li.child[data-name="Extra"] .confirm button.cancel')))
    w.check(w.driver.switch_to.active_element == cancel and "cannot be undone" in one(w, ".confirm p").text,
            f"deleting a child asks first, with Cancel focused: {one(w, '.confirm p').text!r}")
    targets_big_enough(w, "class (asking)")
    one(w, '#children li.child[data-name="Extra"] .confirm button.danger').click()
    w.wait.until(lambda d: "Extra" not in children(w))
    left = w.driver.execute_script(f"return (await (await fetch('/v1/classes/{code}')).json()).children.map(c => c.firstName)")
    w.check(sorted(left) == sorted(CHILDREN) and "deleted" in status(w), f"a child added by name was deleted with all data: {left}")


def new_pictures(w, name, before):
    one(w, f'#children li.child[data-name="{name}"] button[data-action="pictures"]').click()
    w.wait.until(lambda d: "new pictures" in status(w))
    after = children(w)[name]
    w.check(len(after) == 3, f"{name} got new pictures: {after} (were {before})")
    return after


def assign(w, code, category, level):
    # Each level's radio button sits beside its name at its own size (a text box's styles once drew
    # them as 40 px circles over the names).
    for radio in css(w, 'input[name="assign-level"]'):
        label = radio.find_element(By.XPATH, "ancestor::label")
        w.check(radio.rect["width"] <= 32 and radio.rect["x"] + radio.rect["width"] <= label.rect["x"] + label.rect["width"]
                and label.rect["width"] > radio.rect["width"] + 20,
                f"the {radio.get_attribute('value')} radio is {radio.rect['width']:.0f} px wide, inside its label of {label.rect['width']:.0f} px")
    one(w, f'input[name="assign-level"][value="{level}"]').click()
    w.wait.until(lambda d: one(w, f'#assign-category option[value="{category}"]'))
    Select(one(w, "#assign-category")).select_by_value(category)
    due = (datetime.date.today() + datetime.timedelta(days=7)).isoformat()
    w.driver.execute_script(f"document.getElementById('assign-due').value = '{due}'")
    one(w, "#assign button[type=submit]").click()
    item = w.wait.until(lambda d: css(w, "#assignments li.assignment"))[0]
    words = int(w.driver.execute_script(f"return (await (await fetch('/v1/classes/{code}')).json()).assignments[0].entries.length"))
    w.check(category.lower() in item.text.lower() and "0 of 3" in item.text and "due" in item.text and words > 0,
            f"{category} at {level} is set, due {due}, {words} words: {item.text.splitlines()}")
    return words


def print_cards(w, code, names):
    one(w, "#print-cards").click()
    w.wait.until(lambda d: len(css(w, "#signin-cards li.signin-card")) == len(names))
    # "…tap your pictures in this order:" comes right before the pictures, the address after them;
    # opened at 127.0.0.1, the adult is told the children's devices cannot reach that address.
    parts = w.driver.execute_script("return [...document.querySelector('li.signin-card').children].map((e) => e.className)")
    w.check(parts.index("card-help") + 1 == next(i for i, c in enumerate(parts) if "pic" in c) and parts[-1] == "card-help card-where",
            f"a card reads name, code, how, the pictures in order, then the address: {parts}")
    w.check("127.0.0.1" in one(w, "#cards-loopback").text, f"the loopback address is pointed out: {one(w, '#cards-loopback').text!r}")
    looked_at(w, "sign-in cards")
    shot_at(w, "class-cards", "main")
    pdf = base64.b64decode(w.driver.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"])
    path = os.path.join(tempfile.mkdtemp(prefix="vocab-cards-"), "cards.pdf")
    open(path, "wb").write(pdf)
    text = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout).group(1))
    missing = [n for n in names if n not in text]
    w.check(not missing and text.count(code) >= len(names) and "Print" not in text and "Sign out" not in text,
            f"the printed sign-in cards ({pages} A4 page(s)) hold each child's name and the class code {code}: missing {missing}")
    one(w, "main a.button").click()   # back to the class
    w.wait.until(lambda d: css(w, "#children li.child"))
    return pages


def tap_pictures(w, pictures):
    for i in pictures:
        one(w, f'#pic-grid button[data-index="{i}"]').click()


def child_signs_in(w, code, name, pictures, first):
    phone(w)
    if first:
        w.go("/signin")
        w.wait.until(EC.element_to_be_clickable((By.ID, "to-kids"))).click()
    else:
        w.go("/kids")
    box = w.wait.until(EC.visibility_of_element_located((By.ID, "kids-code")))
    box.clear()
    box.send_keys(code.lower() if first else code)
    one(w, "#kids-name").send_keys(name)
    if first:
        looked_at(w, "child sign-in")
        targets_big_enough(w, "child sign-in")
        # Undo takes the last picture back.
        tap_pictures(w, pictures[:2])
        shot_at(w, "kids", "main")
        w.check(one(w, f'.pic-button[data-index="{pictures[0]}"]').get_attribute("disabled") is not None,
                "a chosen picture cannot be chosen again (a picture password is three different pictures)")
        one(w, "#undo").click()
        w.check(len(css(w, "#chosen li.filled")) == 1, "Undo takes the last picture back")
        one(w, "#undo").click()
        # A wrong try: a gentle word, the pictures to tap again, never an alarm.
        wrong = [p for p in range(9) if p not in pictures][:3]
        w.console_clean("before a child's wrong try")
        tap_pictures(w, wrong)
        one(w, "#kids-go").click()
        message = w.wait.until(EC.visibility_of_element_located((By.ID, "kids-message")))
        w.check("didn't work" in message.text and not shown(w, ".error, [role=alert]") and not css(w, "#chosen li.filled"),
                f"wrong pictures are answered gently, without an alarm: {message.text!r}")
        errors = [e["message"] for e in w.driver.get_log("browser") if e["level"] == "SEVERE"]
        w.check(all("/v1/session/child" in e and "401" in e for e in errors), f"the only console line is the refused sign-in's 401: {errors}")
    tap_pictures(w, pictures)
    w.check(len(css(w, "#chosen li.filled")) == 3 and all(not b.is_enabled() for b in css(w, "#pic-grid button"))
            and w.driver.switch_to.active_element == one(w, "#kids-go"),
            f"{name}: 3 pictures chosen in order, shown; the sign-in button has the focus")
    # The sign-in is the first tap of the way to a game.
    w.driver.switch_to.active_element.send_keys(Keys.ENTER)
    w.wait.until(lambda d: d.current_url.endswith("#/"))
    w.wait.until(lambda d: css(w, "#week li.assignment") or css(w, "#week-none"))


def child_practises(w, name, level, game_category, category, words, wrong_first, first):
    item = one(w, "#week li.assignment")
    w.check(item.get_attribute("data-answered") == "0" and item.get_attribute("data-words") == str(words) and f"0 of {words}" in item.text,
            f"{name} signed in with pictures and sees this week's words: {item.text.splitlines()[:3]}")
    w.check(not shown(w, 'nav a[href="#/classes"]') and shown(w, "nav [data-home] a"), f"{name}'s navigation has no Classes")
    w.check(not shown(w, "#search-q") and not shown(w, ".levels") and not shown(w, 'nav a[href="#/library"]')
            and not shown(w, 'nav a[href="#/progress"]'),
            f"{name}'s home has no search box, no level switch and no library pages")
    refused = w.driver.execute_script("const r = await fetch('/v1/classes'); return [r.status, (await r.json()).error.code]")
    w.driver.get_log("browser")   # that 403 is the point
    w.check(refused == [403, "adults_only"], f"{name}'s session is refused the adult routes: {refused}")
    if first:
        looked_at(w, "this week's words")
        targets_big_enough(w, "this week's words")
        shot_at(w, "week", "main")
        w.go("/classes")
        w.check(one(w, "main .kind").text and not css(w, "#new-class"), "a child opening #/classes is sent kindly to their words")
        # Offline (a school's tablet on a weak network): the home shows the words kept on the device.
        w.wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        w.server.stop()
        w.go("/")
        w.wait.until(lambda d: css(w, "#week-offline"))
        kept = one(w, "#week li.assignment")
        w.check(kept.get_attribute("data-words") == str(words) and css(w, '#week li.assignment a[data-game="listen"]'),
                f"offline, {name}'s home still shows this week's words and their games: {one(w, '#week-offline').text!r}")
        w.server.start()
        w.driver.get_log("browser")   # requests that failed while the server was down are the point of that step
        w.go("/")
        # From sign-in to the first question: the sign-in, then one tile (two taps of three).
        one(w, '#week li.assignment a[data-game="listen"]').click()
        w.wait.until(lambda d: css(w, "#counter") or css(w, "#too-few"))
        w.check(f"#/play/listen/{category}?level={level}" in w.driver.current_url and css(w, "#counter") and one(w, "#counter").text.startswith("1"),
                f"two taps from sign-in to the first question of listen and choose, {category} at {level}: {w.driver.current_url}")
        w.go("/")
    # Review this week's words (a batch of at most 10): the first card "Not yet" for one child,
    # every other "I knew it". Each card says its word before its answer; a child has two big
    # choices. A card that is due again before the end comes back in the session.
    w.wait.until(lambda d: css(w, "#week li.assignment"))
    one(w, "#week li.assignment a[data-review]").click()
    again, reviewed, n = None, min(words, 10), 0
    while not css(w, "#done"):
        shown_text = w.wait.until(EC.visibility_of_element_located((By.ID, "front"))).text
        word = shown_text.split(" · ")[0]
        w.wait.until(lambda d: d.execute_script("return document.getElementById('player').dataset.word") == word)
        w.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
        w.wait.until(EC.visibility_of_element_located((By.ID, "back")))
        choices = [b.get_attribute("data-rating") for b in w.driver.find_elements(By.CSS_SELECTOR, ".ratings button")]
        if n == 0:
            w.check(choices == ["again", "good"] and not css(w, ".ratings small"), f"{name} has two choices, no intervals: {choices}")
        rating = "again" if wrong_first and n == 0 else "good"
        if rating == "again":
            again = word
        one(w, f'.ratings button[data-rating="{rating}"]').click()
        n += 1
        w.wait.until(lambda d: css(w, "#done") or css(w, "#reveal"))
    w.check(n >= reviewed, f"{name} answered {n} cards")
    w.go("/week")
    item = one(w, "#week li.assignment")
    w.check(item.get_attribute("data-answered") == str(reviewed) and f"{reviewed} of {words}" in item.text,
            f"{name} reviewed {reviewed} of the {words} words: {item.text.splitlines()[2:4]}")
    # A game round: one wrong answer (the right picture shown), the rest right.
    w.go(f"/play/listen/{game_category}?level={level}")
    w.wait.until(lambda d: css(w, "#game"))
    total, rated = games.play(w, "listen", game_category, level, keyboard=not first, shots=False)
    w.check("added to your review" in rated, f"{name} played listen and choose: {rated!r}")
    one(w, "#signout").click()
    w.wait.until(lambda d: d.current_url.endswith("#/kids") and "Signed out" in status(w))
    w.check(not [c for c in w.driver.get_cookies() if c["name"] == "vocab_session"], f"{name} signed out: the next child signs in here")
    w.console_clean(f"while {name} practised")
    return again, n + total


def adult_sees(w, code, answered, again_word, words):
    phone(w)
    w.go("/signin")
    one(w, "#name").send_keys(ADULT)
    one(w, "#password").send_keys(PASSWORD + Keys.ENTER)
    w.wait.until(lambda d: d.current_url.endswith("#/review"))
    w.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, 'nav a[href="#/classes"]'))).click()
    w.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, f'a.class-tile[data-code="{code}"]'))).click()
    w.wait.until(lambda d: css(w, "#progress-table tbody tr"))
    rows = {r.find_element(By.CSS_SELECTOR, "th").text: int(r.get_attribute("data-answers")) for r in css(w, "#progress-table tbody tr")}
    w.check(rows == answered, f"the adult sees each child's answers: {rows}")
    cells = [td.text for td in css(w, "#progress-table tbody tr:first-child td")]
    w.check(cells[0] == "1" and cells[-1] == "today" and cells[-2].endswith("%"), f"days practised, right % and last active: {cells}")
    hard = [li.get_attribute("data-word") for li in css(w, "#hard-words li")]
    w.check(again_word in hard, f"the hardest words now include {again_word}, which a child got wrong first: {hard}")
    finished = one(w, "#assignments li.assignment")
    everyone = words <= 10   # every word answered by each child: finished
    w.check(finished.get_attribute("data-finished") == ("3" if everyone else "0") and all((n in finished.text) == everyone for n in CHILDREN),
            f"who finished the assignment: {finished.find_element(By.CSS_SELECTOR, '.finished').text!r}")
    csv = w.driver.execute_script("const a = document.getElementById('csv'); return [a.getAttribute('download'), await (await fetch(a.href)).text()]")
    lines = csv[1].strip().splitlines()
    w.check(csv[0] == f"class-{code}.csv" and lines[0].startswith("name,") and sorted(l.split(",")[0] for l in lines[1:]) == sorted(CHILDREN),
            f"Download CSV gives the class table: {lines[0]!r} and {len(lines) - 1} rows")
    fits_table(w)
    looked_at(w, "class progress")
    targets_big_enough(w, "class")
    shot_at(w, "class-progress", "#progress-title")
    # The same page in Vietnamese.
    one(w, "#language").click()
    w.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "vi")
    w.wait.until(lambda d: one(w, "#progress-title").text == "Tiến bộ")
    w.check(one(w, "#children-title").text.startswith("Học sinh"), f"the class page in Vietnamese: {one(w, '#children-title').text!r}")
    fits_table(w)
    looked_at(w, "Vietnamese class")
    one(w, "#language").click()
    w.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
    w.console_clean("on the class page")
    one(w, "#signout").click()
    w.wait.until(lambda d: "Signed out" in status(w))


def locked_then_let_in(w, code, name, pictures):
    """Someone tries pictures for a child until the child is locked: the sign-in page then asks the
    child kindly to get help, even for the right pictures; the adult sees the lock on the class
    page, lets the child in again, and the child signs in."""
    phone(w)
    w.go("/kids")
    box = w.wait.until(EC.visibility_of_element_located((By.ID, "kids-code")))
    box.clear()
    box.send_keys(code)
    one(w, "#kids-name").send_keys(name)
    wrong = [p for p in range(9) if p not in pictures][:3]
    for attempt in range(4):
        tap_pictures(w, pictures if attempt == 3 else wrong)
        one(w, "#kids-go").click()
        w.wait.until(lambda d: one(w, "#kids-message").is_displayed() and one(w, "#kids-go").is_enabled())
    message = one(w, "#kids-message").text
    w.check("ask your teacher" in message and not shown(w, ".error, [role=alert]"),
            f"a locked child is asked kindly to get help, even with the right pictures: {message!r}")
    shot_at(w, "kids-locked", "#kids-message")
    errors = [e["message"] for e in w.driver.get_log("browser") if e["level"] == "SEVERE"]
    w.check(all("/v1/session/child" in e and ("401" in e or "429" in e) for e in errors), f"only the refused sign-ins on the console: {errors}")
    w.go("/signin")
    one(w, "#name").send_keys(ADULT)
    one(w, "#password").send_keys(PASSWORD + Keys.ENTER)
    w.wait.until(lambda d: d.current_url.endswith("#/review"))
    w.go(f"/class/{code}")
    card = w.wait.until(lambda d: css(w, f'#children li.child[data-name="{name}"][data-locked="true"]'))[0]
    w.check("cannot sign in now" in card.text and "3 today" in card.text, f"the adult sees the lock and the wrong tries: {card.text!r}")
    looked_at(w, "class with a locked child")
    shot_at(w, "class-locked", f'#children li.child[data-name="{name}"]')
    card.find_element(By.CSS_SELECTOR, 'button[data-action="unlock"]').click()
    w.wait.until(lambda d: css(w, f'#children li.child[data-name="{name}"]') and not css(w, f'#children li.child[data-name="{name}"][data-locked="true"]'))
    w.check(name in status(w) and "sign in again" in status(w), f"the adult is told the child can sign in again: {status(w)!r}")
    w.console_clean("letting a child in again")
    w.driver.execute_script("document.getElementById('signout').click()")
    w.wait.until(lambda d: "Signed out" in status(w))
    child_signs_in(w, code, name, pictures, first=False)
    w.driver.execute_script("document.getElementById('signout').click()")
    w.wait.until(lambda d: "Signed out" in status(w))


def fresh_phone_at_320(w, code, name, pictures):
    """A child on a small phone that has never opened vocab (a browser profile of its own, 320 px
    wide): the sign-in page in Vietnamese, then the child's home, in Vietnamese and in English. Each
    fits the screen without sideways scroll, its targets are big, the first game tile is on the first
    screen and the Vietnamese pages show no English string, id or code."""
    # The smallest phones in use: 320 x 568 px of page (the window is taller by the browser's own bars).
    size = (320, 568)
    d = w.browser(size)
    d.set_window_size(320, 640)
    bars = 640 - d.execute_script("return innerHeight")
    d.set_window_size(320, size[1] + bars)
    wait = WebDriverWait(d, 60, ignored_exceptions=[StaleElementReferenceException])
    find = lambda selector: wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, selector)))

    def fits(page):
        wide = d.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        small = d.execute_script("""
            return [...document.querySelectorAll('main button, main a.button, main a.tile, main input')]
              .filter(e => e.offsetParent && (e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44))
              .map(e => e.outerHTML.slice(0, 70));""")
        w.check(wide <= 0 and not small, f"{page} at 320 px: no sideways scroll ({wide} px over), every target 44 px or more {small}")

    try:
        d.get(f"{w.base}/#/kids")
        wait.until(lambda _: d.execute_script("return document.documentElement.dataset.ready === 'true'"))
        kept = d.execute_script("return Object.keys(localStorage)")
        w.check(not [k for k in kept if k.startswith(("vocab.user", "vocab.week.", "vocab.queue", "vocab.childMode"))]
                and d.execute_script("return document.documentElement.lang") == "en",
                f"a phone that never opened vocab: no one's words kept on it ({kept}), the page in English")
        find("#language").click()
        wait.until(lambda _: d.execute_script("return document.documentElement.lang") == "vi")
        fits("the child's sign-in in Vietnamese")
        leaks = w.english_on_screen(d)
        w.check(not leaks, f"the child's sign-in in Vietnamese shows no English: {leaks}")
        find("#kids-code").send_keys(code)
        find("#kids-name").send_keys(name)
        for i in pictures:
            find(f'#pic-grid button[data-index="{i}"]').click()
        find("#kids-go").click()
        wait.until(lambda _: d.current_url.endswith("#/") and d.find_elements(By.CSS_SELECTOR, '#week li.assignment a[data-game="listen"]'))
        time.sleep(0.3)
        fits(f"{name}'s home in Vietnamese")
        leaks = w.english_on_screen(d)
        w.check(not leaks, f"{name}'s home in Vietnamese shows no English string, id or code: {leaks}")
        tile = find('#week li.assignment a[data-game="listen"]')
        top = d.execute_script("return arguments[0].getBoundingClientRect().bottom", tile)
        header = d.execute_script("return document.querySelector('header').getBoundingClientRect().height")
        screen = d.execute_script("return innerHeight")
        w.check(top <= screen and header < screen / 3,
                f"{name}'s first game tile is on the first screen ({top:.0f} of {screen} px; the header {header:.0f} px)")
        find("#language").click()
        wait.until(lambda _: d.execute_script("return document.documentElement.lang") == "en")
        wait.until(lambda _: "Listen" in d.find_element(By.CSS_SELECTOR, "#week").text)
        fits(f"{name}'s home in English")
        find('#week li.assignment a[data-game="listen"]').click()
        wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, "#counter"))
        time.sleep(0.3)
        fits("the first question of listen and choose")
        errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
        w.check(not errors, f"no console errors on the fresh phone: {errors}")
        find("#signout").click()
        wait.until(lambda _: d.current_url.endswith("#/kids"))
    finally:
        d.quit()


def walk(w, category, level, game_category):
    sign_up(w)
    code = make_class(w, "Year 3 Blue")
    pictures = import_roster(w, code)
    add_and_erase(w, code)
    pictures["Khoa"] = new_pictures(w, "Khoa", pictures["Khoa"])
    shot_at(w, "class", "main")
    w.check(one(w, "#no-hard-words") and all(r.get_attribute("data-answers") == "0" for r in css(w, "#progress-table tbody tr")),
            "before any practice: no answers and no hard words")
    # The set is the pictured one, so that its tiles lead straight into a game.
    words = assign(w, code, game_category, level)
    looked_at(w, "class")
    targets_big_enough(w, "class")
    pages = print_cards(w, code, CHILDREN)
    w.console_clean("making a class")
    one(w, "#signout").click()
    w.wait.until(lambda d: "Signed out" in status(w))

    answered, again_word = {}, None
    for i, name in enumerate(CHILDREN):
        child_signs_in(w, code, name, pictures[name], first=i == 0)
        again, count = child_practises(w, name, level, game_category, game_category, words, wrong_first=i == 0, first=i == 0)
        again_word = again_word or again
        answered[name] = count
    adult_sees(w, code, answered, again_word, words)
    locked_then_let_in(w, code, "Khoa", pictures["Khoa"])
    fresh_phone_at_320(w, code, "Bảo", pictures["Bảo"])
    return {"classCode": code, "classAnswers": sum(answered.values()), "classChildren": len(answered), "cardPages": pages}
