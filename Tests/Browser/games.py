"""The games of the web app, played in the browser as a child would at a phone's width: listen and
choose, look and spell and match, each with taps and with the keyboard alone, one wrong answer and
the rest right. Signed out nothing is rated; signed in every first answer is a review (right Good,
wrong Again) and a category's words join the library; a round played offline queues its answers,
sent once when the server is back. Called by webapp.py with its helpers (`w`)."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

PHONE = (390, 844)


def phone(w):
    w.driver.set_window_size(*PHONE)
    time.sleep(0.2)


def looked_at(w, name):
    """The page as it is: no sideways scroll at 390 and 320 px, names and axe; back to the phone."""
    w.fits_phone(name)
    phone(w)


def css(w, selector):
    return w.driver.find_elements(By.CSS_SELECTOR, selector)


def one(w, selector):
    return w.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, selector)))


def counter(w):
    found = css(w, "#counter")
    return found[0].text if found else None


def heard(w):
    # The word the child hears: the one the audio element was last given.
    return w.driver.execute_script("return document.getElementById('player').dataset.word")


def tab_to(w, element, limit=40):
    """Focus `element` the keyboard's way, with Tab from where focus is."""
    for _ in range(limit):
        if w.driver.switch_to.active_element == element:
            return
        w.driver.switch_to.active_element.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached {element.get_attribute('outerHTML')[:80]}")


def key(w, *keys):
    w.driver.switch_to.active_element.send_keys(*keys)


def big_enough(w, name):
    small = w.driver.execute_script("""
        return [...document.querySelectorAll('#game button, #game a, main a.button')]
          .filter(e => e.offsetParent && (e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44))
          .map(e => e.outerHTML.slice(0, 60));""")
    w.check(not small, f"every target of {name} is at least 44 x 44 px: {small}")


def next_question(w, before):
    w.wait.until(lambda d: counter(w) != before or css(w, "#result"))


def result(w, name, right, total):
    res = w.wait.until(EC.visibility_of_element_located((By.ID, "result")))
    stars = one(w, "#stars").get_attribute("aria-label")
    expected = 3 if right == total else 2 if right * 5 >= total * 3 else 1
    w.check(res.get_attribute("data-score") == str(right) and res.get_attribute("data-total") == str(total)
            and stars.startswith(str(expected)) and css(w, "#again") and css(w, "#other-games"),
            f"{name} ends with a score and stars, never a penalty: {one(w, '#score').text} {stars!r} ({one(w, '#cheer').text})")
    status = one(w, "#status").text
    w.check("Could not" not in status, f"{name}: no clip failure was reported on the way: {status!r}")
    missed = [e.text for e in css(w, ".practise-list .word")]
    w.check(len(missed) == total - right, f"the words to practise are listed with their pictures: {missed}")
    return one(w, "#rated").text


def listen_round(w, name, keyboard, shots=True):
    """Five questions: the first answered with a wrong picture, the rest right."""
    one(w, "#game .choice")
    q = 0
    while not css(w, "#result"):
        before = counter(w)
        w.wait.until(lambda d: heard(w) and len(css(w, "#game .choice")) == 4)
        word = heard(w)
        choices = css(w, "#game .choice")
        words = [c.get_attribute("data-word") for c in choices]
        w.check(word in words, f"{name}: {word} is heard, one of four pictures {words}") if q == 0 else None
        pick = next(i for i, x in enumerate(words) if (x != word if q == 0 else x == word))
        if keyboard:
            key(w, str(pick + 1))
        else:
            choices[pick].click()
        if q == 0:
            nxt = w.wait.until(EC.element_to_be_clickable((By.ID, "next")))
            right = one(w, ".choice.right")
            w.check(right.get_attribute("data-word") == word and word in right.text and css(w, ".choice.not-this")
                    and word in one(w, "#feedback").text,
                    f"{name}: a wrong picture gently shows the right one, {word}, and offers Next")
            if not keyboard:
                if shots:
                    w.shot("game-listen")
                looked_at(w, f"{name} (after a wrong answer)")
                w.drawings_loaded(f"{name}: the four pictures", 4)
                big_enough(w, name)
                slow = one(w, "#hear-slow")
                slow.click()
                w.wait.until(lambda d: d.execute_script("return document.getElementById('player').currentSrc.includes('speed=0.75')"))
                w.check(True, f"{name}: the 🐢 button replays {word} slowly")
                nxt.click()
            else:
                w.check(w.driver.switch_to.active_element == nxt, f"{name}: Next has the focus")
                key(w, Keys.ENTER)
        next_question(w, before)
        q += 1
    return q


def spell_round(w, name, keyboard, shots=True):
    """Five words: the first with one wrong letter, the rest straight."""
    q = 0
    while not css(w, "#result"):
        before = counter(w)
        word = one(w, "#spell-picture").get_attribute("data-word").lower()
        letters = [c for c in word if c.isalpha()]
        tiles = sorted(c.get_attribute("data-letter") for c in css(w, "#game .letter"))
        if q == 0:
            w.check(tiles == sorted(letters), f"{name}: the picture of {word} and its {len(tiles)} letters as tiles")
            wrong = next(c for c in "qxzjkvwyabcdefg" if c != letters[0])
            if keyboard:
                key(w, wrong)
            else:
                tile = next((t for t in css(w, "#game .letter") if t.get_attribute("data-letter") != letters[0]), None)
                wrong = tile.get_attribute("data-letter")
                tile.click()
            hint = one(w, "#game .letter.hint")
            w.check(hint.get_attribute("data-letter") == letters[0] and one(w, "#feedback").text,
                    f"{name}: a wrong letter ({wrong}) makes the right one, {letters[0]}, shine")
            if not keyboard:
                if shots:
                    w.shot("game-spell")
                looked_at(w, f"{name} (after a wrong letter)")
                big_enough(w, name)
        for c in letters:
            if keyboard:
                key(w, c)
            else:
                next(t for t in css(w, "#game .letter") if t.is_displayed() and t.get_attribute("data-letter") == c).click()
        w.wait.until(lambda d: "done" in one(w, "#slots").get_attribute("class"))
        if q == 0:
            filled = "".join(s.text for s in css(w, "#slots .slot"))
            w.check(filled.replace(" ", "") == word.replace(" ", ""), f"{name}: {word} spelled in its slots")
            # Each letter placed is said by its name: the last one's recording loaded.
            said = w.driver.execute_script(
                "const p = document.getElementById('letter-player'); return [p.dataset.letter, p.currentSrc, p.readyState]")
            w.wait.until(lambda d: d.execute_script("return document.getElementById('letter-player').readyState") >= 1)
            w.check(said[0] == letters[-1] and said[1].endswith(f"/letters/{letters[-1]}.ogg"),
                    f"{name}: the letters were said as they were placed, the last {said[0]!r} from {said[1].rsplit('/', 2)[-2:]}")
        next_question(w, before)
        q += 1
    return q


def match_round(w, name, keyboard, shots=True):
    """Four pairs: the first picture matched with a wrong word (the right one is shown), the rest right."""
    pictures = css(w, "#game .picture-card")
    n = len(pictures)
    w.check(n == 4 and len(css(w, "#game .word-card")) == 4, f"{name}: four pictures and four words")
    for q in range(n):
        picture = next(p for p in css(w, "#game .picture-card") if "matched" not in p.get_attribute("class"))
        word = picture.get_attribute("data-word")
        cards = [c for c in css(w, "#game .word-card") if "matched" not in c.get_attribute("class")]
        target = next(c for c in cards if (c.get_attribute("data-word") != word if q == 0 else c.get_attribute("data-word") == word))
        if keyboard:
            tab_to(w, picture)
            key(w, Keys.ENTER)
            w.wait.until(lambda d: picture.get_attribute("aria-pressed") == "true")
            tab_to(w, target)
            key(w, Keys.SPACE)
        else:
            picture.click()
            target.click()
        w.wait.until(lambda d: "matched" in picture.get_attribute("class"))
        if q == 0:
            shown = one(w, f'#game .word-card.shown[data-word="{word}"]')
            w.check("matched" not in target.get_attribute("class") and shown and word in one(w, "#feedback").text,
                    f"{name}: a wrong word leaves it free and shows {word} with its picture")
            if not keyboard:
                if shots:
                    w.shot("game-match")
                looked_at(w, f"{name} (after a wrong pair)")
                w.drawings_loaded(f"{name}: the pictures", 4)
                big_enough(w, name)
    return n


ROUNDS = {"listen": listen_round, "spell": spell_round, "match": match_round}


def play(w, game, source, level, keyboard, wrong=1, shots=True):
    name = f"{game} ({'keyboard' if keyboard else 'taps'}, {source})"
    total = ROUNDS[game](w, name, keyboard, shots)
    rated = result(w, name, total - wrong, total)
    return total, rated


def reviews_today(w):
    return w.driver.execute_script(
        "const r = await (await fetch('/v1/me/progress')).json(); return r.report.reviewsPerDay.at(-1)?.reviews ?? 0")


def queued(w):
    return w.driver.execute_script("""
        return await new Promise((resolve, reject) => {
          const r = indexedDB.open('vocab', 1);
          r.onupgradeneeded = () => r.result.createObjectStore('ratings', { keyPath: 'clientId' });
          r.onsuccess = () => { const q = r.result.transaction('ratings').objectStore('ratings').getAll();
                                q.onsuccess = () => resolve(q.result); };
          r.onerror = () => reject(r.error);
        });""")


def signed_out(w, category, level):
    """Signed out: a category's game plays to the end and nothing is rated."""
    phone(w)
    w.go(f"/category/{category}")
    link = w.wait.until(EC.element_to_be_clickable((By.ID, "play-link")))
    w.check(link.rect["height"] >= 44 and link.get_attribute("href").endswith(f"#/play/{category}?level={level}"),
            f"the category page has a Play button for {category} at {level}")
    link.click()
    tiles = w.wait.until(lambda d: css(w, "#games a.tile"))
    w.check([t.get_attribute("data-game") for t in tiles] == ["listen", "spell", "match"] and all(t.rect["height"] >= 80 for t in tiles),
            f"three games to choose signed out (Say it needs an account), big tiles: {[t.text.splitlines()[1] for t in tiles]}")
    w.shot("games")
    looked_at(w, "games")
    one(w, '#games a[data-game="listen"]').click()
    total, rated = play(w, "listen", category, level, keyboard=False)
    w.check("Sign in" in rated, f"signed out, the round is not rated and says how it could be: {rated!r}")
    sent = w.driver.execute_script("return performance.getEntriesByType('resource').filter(r => r.name.includes('/v1/me')).length")
    w.check(sent == 0, "signed out, nothing was sent to /v1/me")
    w.shot("game-result")
    looked_at(w, "game result")
    w.console_clean("playing signed out")


def signed_in(w, category, level):
    """Signed in (a learner whose library holds few pictured words): every game with taps and the
    keyboard; the answers reach the server as reviews; my words; offline. Returns what was rated."""
    phone(w)
    start = reviews_today(w)
    rated_total, again = 0, 0

    # My words with fewer than four pictures: said kindly, with topics to play instead.
    w.go("/library")
    w.wait.until(EC.element_to_be_clickable((By.ID, "play-mine"))).click()
    w.wait.until(lambda d: css(w, "#games a.tile"))
    one(w, '#games a[data-game="match"]').click()
    w.wait.until(lambda d: css(w, "#too-few") or css(w, "#game"))
    if css(w, "#too-few"):
        offered = [t.get_attribute("data-category") for t in css(w, "main a.tile")]
        w.check(offered, f"too few pictured words is said kindly, with topics to play: {one(w, '#too-few').text!r} {offered}")
        looked_at(w, "too few pictures")

    for game, keyboard in (("listen", False), ("listen", True), ("spell", False), ("spell", True), ("match", False), ("match", True)):
        w.go(f"/play/{game}/{category}?level={level}")
        w.wait.until(lambda d: css(w, "#game"))
        total, rated = play(w, game, category, level, keyboard)
        rated_total += total
        again += 1
        w.check("added to your review" in rated, f"signed in, the {game} round says its answers joined the review: {rated!r}")
        if keyboard and game == "listen":
            # Play again from the keyboard: a new round starts at once.
            tab_to(w, one(w, "#again"))
            key(w, Keys.ENTER)
            w.wait.until(lambda d: css(w, "#game .choice"))
            w.check(counter(w).startswith("1"), "Play again starts a new round")
    today = reviews_today(w)
    w.check(today - start == rated_total, f"every answer of the six rounds reached the server as a review: {today - start} of {rated_total}")
    saved = w.driver.execute_script(f"return (await (await fetch('/v1/me/library')).json()).items.filter(i => i.entry.startsWith('{category}/')).length")
    w.check(saved >= 4, f"the {category} words played joined the library: {saved}")
    w.console_clean("playing signed in")

    # My words, now with pictures enough: a round online keeps them for offline play.
    w.go("/library")
    w.wait.until(EC.element_to_be_clickable((By.ID, "play-mine"))).click()
    one(w, '#games a[data-game="listen"]').click()
    w.wait.until(lambda d: css(w, "#game .choice"))
    total, rated = play(w, "listen", "mine", level, keyboard=True)
    rated_total += total
    again += 1

    # Offline: a round of my words, its answers queued and sent once the server is back.
    w.wait.until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    w.server.stop()
    w.go("/play/match/mine")
    w.wait.until(lambda d: css(w, "#game .picture-card"))
    w.check("Offline" in one(w, "#status").text, "offline, my words' game plays from the words kept on the device")
    total, rated = play(w, "match", "mine", level, keyboard=False, shots=False)
    waiting = queued(w)
    w.check(len(waiting) == total and "will be sent" in rated, f"offline, the {total} answers wait in IndexedDB: {rated!r}")
    offline_ids = [q["clientId"] for q in waiting]
    w.server.start()
    for _ in range(2):   # reloading again must not send them twice
        w.go("/progress")
        w.wait.until(lambda d: len(queued(w)) == 0)
    rated_total += total
    again += 1
    w.check(reviews_today(w) - start == rated_total, f"back online, the queued answers arrived once: {reviews_today(w) - start} reviews")
    w.driver.get_log("browser")   # requests that failed while the server was down are the point of that step

    # The games in Vietnamese.
    w.go(f"/play/{category}?level={level}")
    w.driver.find_element(By.ID, "language").click()
    w.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "vi")
    # The page is drawn again in Vietnamese: read once it is.
    w.wait.until(lambda d: css(w, "#games a.tile") and css(w, "#games a.tile")[0].text.splitlines()[1] == "Nghe và chọn")
    names = [t.text.splitlines()[1] for t in css(w, "#games a.tile")]
    w.check(names == ["Nghe và chọn", "Nhìn và đánh vần", "Ghép đôi", "Nói nào"], f"the games in Vietnamese: {names}")
    w.shot("games-vi")
    looked_at(w, "Vietnamese games")
    one(w, '#games a[data-game="spell"]').click()
    prompt = w.wait.until(lambda d: css(w, "#game .prompt"))[0].text
    w.check(prompt.startswith("Chạm vào các chữ cái"), f"look and spell in Vietnamese: {prompt!r}")
    looked_at(w, "Vietnamese look and spell")
    w.driver.find_element(By.ID, "language").click()
    w.wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
    w.console_clean("playing offline and in Vietnamese")
    return {"gameReviews": rated_total, "gameAgain": again, "gameOfflineClientIds": offline_ids}
