"""Say it, in headless Chromium at a phone's width, with Chromium's fake microphone saying a
person's recording: the learner signs in, opens the cat's Say it page from its word page, taps
the microphone and says the word. "cat" said to the cat card is well said (a review written);
"hat" said to it is "nearly", kindly, in Vietnamese too, and writes nothing. Then a round of Say
it for a topic, and a page whose microphone is refused says so in words a child's adult can act
on. The page names every image and control, and axe-core finds no violation, in both languages.

Usage: say.py --vocab PATH --name NAME --password PW --cat WAV --hat WAV
Prints RESULT {json} last; exits non-zero on the first failed check."""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import wave

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from servers import VocabServer  # noqa: E402
import accessibility  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE = (390, 844)


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        raise SystemExit(1)


def padded(source, folder, name):
    """The recording with quiet before and after it, as Chromium's fake microphone loops it: the
    child is quiet, says the word, and is quiet again."""
    with wave.open(source) as w:
        params, frames = w.getparams(), w.readframes(w.getnframes())
    quiet = b"\0" * (params.sampwidth * params.nchannels * int(params.framerate * 0.8))
    path = os.path.join(folder, name)
    with wave.open(path, "wb") as out:
        out.setparams(params)
        out.writeframes(quiet + frames + quiet + quiet)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--cat", required=True)
    ap.add_argument("--hat", required=True)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="vocab-say-")
    server = VocabServer(args.vocab, args=["--log-level", "info"], log=os.path.join(folder, "serve.log"))
    server.start()
    result = {}
    drivers = []

    def browser(microphone=None, refuse=False):
        profile = tempfile.mkdtemp(prefix="vocab-chromium-", dir=folder)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                 "--autoplay-policy=no-user-gesture-required", "--no-first-run", f"--window-size={PHONE[0]},{PHONE[1]}"]
        if microphone:
            # The fake microphone says the file, over and over; the page is allowed to use it.
            flags += ["--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={microphone}", "--use-fake-ui-for-media-stream"]
        if refuse:
            flags += ["--use-fake-device-for-media-stream", "--deny-permission-prompts"]
        for flag in flags:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        drivers.append(driver)
        return driver, WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException])

    def sign_in(driver, wait):
        driver.get(f"{server.url}/#/signin")
        wait.until(EC.presence_of_element_located((By.ID, "password")))
        driver.find_element(By.ID, "name").send_keys(args.name)
        driver.find_element(By.ID, "password").send_keys(args.password + Keys.ENTER)
        # Signing in leads to the review page: once there, the next address is not overtaken by it.
        wait.until(lambda d: d.current_url.endswith("#/review"))

    def library(driver):
        return driver.execute_async_script(
            "const done = arguments[0]; fetch('/v1/me/library', {credentials: 'same-origin'}).then(r => r.json()).then(done, e => done(String(e)));")

    def tap(wait, selector):
        # The page may be drawn again as it settles (the header's level follows the address): an
        # element found before that is found again, never used stale.
        def tapped(d):
            d.find_element(By.CSS_SELECTOR, selector).click()
            return True
        wait.until(tapped)

    def say_once(driver, wait):
        wait.until(EC.element_to_be_clickable((By.ID, "say-mic")))
        tap(wait, "#say-mic")
        wait.until(lambda d: d.find_element(By.ID, "say-feedback").get_attribute("data-verdict")
                   or d.find_element(By.ID, "say-feedback").text)
        feedback = driver.find_element(By.ID, "say-feedback")
        return feedback.get_attribute("data-verdict"), feedback.text

    def fits(driver):
        return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")

    axe_source = accessibility.axe_source()

    def accessible(driver, name):
        unnamed = accessibility.unnamed(driver)
        check(not unnamed, f"the {name} names every image, control and field: {unnamed}")
        found = accessibility.violations(driver, axe_source)
        check(not found, f"axe-core finds no violation on the {name}: {found}")

    try:
        # "cat" said to the cat card, from the word page's Say it.
        driver, wait = browser(padded(args.cat, folder, "cat-mic.wav"))
        sign_in(driver, wait)
        driver.get(f"{server.url}/#/word/cat")
        link = wait.until(EC.element_to_be_clickable((By.ID, "say-it")))
        link.click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".say-card img, .say-card .picture")))
        check(fits(driver), "the Say it page fits a phone's width")
        check(driver.find_element(By.ID, "say-mic").size["height"] >= 100, "the microphone is a big target (>= 100 px tall)")
        verdict, text = say_once(driver, wait)
        result["catVerdict"], result["catText"] = verdict, text
        check(verdict == "well_said", f"'cat' said to the cat card is well said: {verdict} '{text}'")
        items = library(driver)["items"]
        cat = [i for i in items if i["entry"] == "animals/cat"]
        check(len(cat) == 1 and cat[0]["card"]["reps"] == 1, f"it counts as a review of cat: {[(i['entry'], i['card']['reps']) for i in items]}")
        check(wait.until(lambda d: d.find_element(By.ID, "say-next").is_displayed()), "the child can go on")
        accessible(driver, "Say it page with its praise")
        # A round of Say it for the topic, at Starters: its words one by one, stars at the end.
        driver.get(f"{server.url}/#/play/say/animals?level=starters")
        wait.until(EC.presence_of_element_located((By.ID, "say-mic")))
        check(fits(driver), "the round fits a phone's width")
        rounds = 0
        while rounds < 10 and not driver.find_elements(By.ID, "result"):
            word = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".say-card").get_attribute("data-word"))
            verdict, _ = say_once(driver, wait)
            result.setdefault("round", []).append([word, verdict])
            for _ in range(3):
                if wait.until(lambda d: "shown" if d.find_element(By.ID, "say-next").is_displayed() else "hidden") == "shown":
                    break
                verdict, _ = say_once(driver, wait)
            tap(wait, "#say-next")
            rounds += 1
        wait.until(EC.presence_of_element_located((By.ID, "stars")))
        check(driver.find_element(By.ID, "score").text != "", f"the round ends with stars and a score: {driver.find_element(By.ID, 'score').text}")
        driver.quit()

        # "hat" said to the cat card: nearly, kindly, and no review (no Again) written.
        driver, wait = browser(padded(args.hat, folder, "hat-mic.wav"))
        sign_in(driver, wait)
        before = library(driver)["items"]
        driver.get(f"{server.url}/#/say/cat/animals%2Fcat")
        verdict, text = say_once(driver, wait)
        result["hatVerdict"], result["hatText"] = verdict, text
        check(verdict == "nearly", f"'hat' said to the cat card is not praised: {verdict} '{text}'")
        check("wrong" not in text.lower() and "hat" in text, f"it says kindly what it heard: '{text}'")
        # The same in Vietnamese, for the adult beside the child.
        tap(wait, "#language")
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "vi")
        wait.until(lambda d: "Chạm" in d.find_element(By.ID, "say-mic").text)
        verdict, text = say_once(driver, wait)
        result["hatVerdictVi"], result["hatTextVi"] = verdict, text
        check(verdict == "nearly" and "Gần đúng" in text and "hat" in text, f"in Vietnamese it says kindly what it heard: {verdict} '{text}'")
        check(fits(driver), "the Vietnamese page fits a phone's width")
        accessible(driver, "Say it page in Vietnamese, nearly")
        tap(wait, "#language")
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
        after = library(driver)["items"]
        check([(i["entry"], i["card"]["reps"]) for i in before] == [(i["entry"], i["card"]["reps"]) for i in after],
              "nothing was rated, so no Again")
        driver.quit()

        # A microphone the browser refuses: said in words, and the child can go on.
        driver, wait = browser(refuse=True)
        sign_in(driver, wait)
        driver.get(f"{server.url}/#/say/cat/animals%2Fcat")
        wait.until(EC.element_to_be_clickable((By.ID, "say-mic")))
        tap(wait, "#say-mic")
        wait.until(lambda d: d.find_element(By.ID, "say-feedback").text)
        text = driver.find_element(By.ID, "say-feedback").text
        result["refusedText"] = text
        check("microphone" in text.lower() and driver.find_element(By.ID, "say-next").is_displayed(),
              f"a refused microphone is said kindly: '{text}'")
        driver.quit()
    except BaseException:
        for d in drivers:
            try:
                print("page:", d.current_url, d.find_element(By.TAG_NAME, "main").text[:800])
                for entry in d.get_log("browser")[-20:]:
                    print("console:", entry)
            except Exception:
                pass
        print("server log:\n" + server.read_log()[-4000:])
        raise
    finally:
        for d in drivers:
            try:
                d.quit()
            except Exception:
                pass
        server.stop()
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
