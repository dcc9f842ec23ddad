"""What every page of the web app is held to, shared by the browser walks: every image has
alternative text, every control a name, every field a label, the page a language; and axe-core's
rules (WCAG A and AA) find no violation on the page as it is now."""
import os

_UNNAMED = """
    const named = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim().length > 0;
    const labelled = (e) => e.labels?.length > 0 || e.getAttribute('aria-label') || e.closest('label');
    return [...document.querySelectorAll('img:not([alt])')].map(e => 'img ' + e.src)
      .concat([...document.querySelectorAll('button, a[href]')].filter(e => !named(e)).map(e => e.outerHTML.slice(0, 80)))
      .concat([...document.querySelectorAll('input, select, textarea')].filter(e => !labelled(e)).map(e => e.outerHTML.slice(0, 80)))
      .concat(document.documentElement.lang ? [] : ['no lang on html']);"""

_AXE_RUN = """
    const done = arguments[arguments.length - 1];
    axe.run(document, { resultTypes: ["violations"] })
      .then((r) => done(r.violations.map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "))))
      .catch((e) => done(["axe failed: " + e]));"""


def axe_source():
    """axe-core's script, installed by scripts/install-deps test (VOCAB_AXE_JS names it)."""
    with open(os.environ["VOCAB_AXE_JS"], encoding="utf-8") as f:
        return f.read()


def unnamed(driver):
    """Images without alternative text, controls without a name, fields without a label."""
    return driver.execute_script(_UNNAMED)


def violations(driver, source):
    """axe-core's violations on the page as it is now."""
    driver.execute_script(source)
    return driver.execute_async_script(_AXE_RUN)
