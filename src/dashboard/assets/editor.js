// shotgen set editor: live preview while typing, and dragging slides to reorder. Progressive
// enhancement: without this file the form still saves, and its up/down buttons reorder. In a set of
// several locales the language tabs switch in place, keeping what was typed in every language.
'use strict';

(function () {
  const form = document.querySelector('form[data-editor]');
  if (!form) return;
  const jobId = form.getAttribute('data-editor');
  const list = form.querySelector('[data-slides]');
  const orderInput = form.querySelector('[data-order]');
  const value = (name) => (form.elements[name] ? form.elements[name].value : '');
  const timers = {};
  const urls = {};
  // The set's locales ("" for a set in one locale); slide k's fields end with k, or k-locale past the first.
  const locales = (form.getAttribute('data-locales') || '').split(' ');
  const shownInput = form.querySelector('[data-shown]');
  let shown = shownInput ? shownInput.value : locales[0];
  const key = (k) => (shown === locales[0] ? String(k) : k + '-' + shown);

  function preview(k) {
    const body = new URLSearchParams({
      _csrf: value('_csrf'),
      index: String(k),
      locale: shown,
      headline: value('headline-' + key(k)),
      subheadline: value('subheadline-' + key(k)),
      screenId: value('screen-' + k),
      theme: value('theme'),
      bg1: value('bg1').toUpperCase(),
      bg2: value('bg2').toUpperCase(),
      text: value('text').toUpperCase(),
    });
    const img = form.querySelector('[data-preview="' + k + '"]');
    const fit = form.querySelector('[data-fit="' + k + '"]');
    const warnings = form.querySelector('[data-warnings="' + k + '"]');
    fetch('/sets/' + jobId + '/preview', { method: 'POST', body: body, credentials: 'same-origin' })
      .then(function (res) {
        if (!res.ok) throw new Error('preview ' + res.status);
        const fits = res.headers.get('caption-fits') === 'true';
        let found = [];
        try {
          found = JSON.parse(decodeURIComponent(res.headers.get('caption-warnings') || '%5B%5D'));
        } catch {
          found = [];
        }
        fit.textContent = fits ? 'The caption fits.' : 'Too long: this caption cannot fit on the slide. Shorten it.';
        fit.className = fits ? 'hint' : 'field-error';
        warnings.replaceChildren.apply(
          warnings,
          found.map(function (w) {
            const li = document.createElement('li');
            li.textContent = w;
            return li;
          }),
        );
        return res.blob();
      })
      .then(function (blob) {
        if (urls[k]) URL.revokeObjectURL(urls[k]);
        urls[k] = URL.createObjectURL(blob);
        img.src = urls[k];
        img.hidden = false;
      })
      .catch(function () {
        fit.textContent = 'The preview is not available right now; saving still works.';
      });
  }

  function schedule(k) {
    clearTimeout(timers[k]);
    timers[k] = setTimeout(function () {
      preview(k);
    }, 250);
  }

  function items() {
    return Array.prototype.slice.call(list.querySelectorAll('li[data-slide]'));
  }

  function renumber() {
    const all = items();
    orderInput.value = all
      .map(function (li) {
        return li.getAttribute('data-slide');
      })
      .join(',');
    all.forEach(function (li, i) {
      const note = li.querySelector('legend .muted');
      if (note) note.textContent = '(now ' + (i + 1) + ' of ' + all.length + ')';
      li.querySelector('button[value$=":up"]').disabled = i === 0;
      li.querySelector('button[value$=":down"]').disabled = i === all.length - 1;
    });
  }

  form.addEventListener('input', function (event) {
    const li = event.target.closest('li[data-slide]');
    if (li) schedule(li.getAttribute('data-slide'));
    else if (items()[0]) schedule(items()[0].getAttribute('data-slide'));
  });
  form.addEventListener('change', function (event) {
    if (event.target.tagName !== 'SELECT' && event.target.type !== 'color') return;
    const li = event.target.closest('li[data-slide]') || items()[0];
    if (li) schedule(li.getAttribute('data-slide'));
  });

  // Up and down move the slide here, without a round trip; the focus stays on the button.
  form.addEventListener('click', function (event) {
    const button = event.target.closest('button[name="move"]');
    if (!button) return;
    event.preventDefault();
    const li = button.closest('li[data-slide]');
    if (button.value.endsWith(':up') && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
    else if (button.value.endsWith(':down') && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
    renumber();
    if (button.disabled)
      (button.value.endsWith(':up') ? li.querySelector('button[value$=":down"]') : li.querySelector('button[value$=":up"]')).focus();
    else button.focus();
  });

  function switchTo(locale) {
    if (locale === shown || locales.indexOf(locale) < 0) return;
    shown = locale;
    shownInput.value = locale;
    document.querySelectorAll('[data-locale-pane]').forEach(function (pane) {
      pane.hidden = pane.getAttribute('data-locale-pane') !== locale;
    });
    document.querySelectorAll('[data-locale-tab]').forEach(function (tab) {
      if (tab.getAttribute('data-locale-tab') === locale) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    });
    window.history.replaceState(null, '', window.location.pathname.replace(/\/edit$/, '') + '?locale=' + encodeURIComponent(locale));
    // The previews on view were of the other language: draw them again in this one.
    items().forEach(function (li) {
      const k = li.getAttribute('data-slide');
      const img = form.querySelector('[data-preview="' + k + '"]');
      if (!img.hidden) schedule(k);
    });
  }
  document.querySelectorAll('[data-locale-tab]').forEach(function (tab) {
    tab.addEventListener('click', function (event) {
      if (!shownInput || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      switchTo(tab.getAttribute('data-locale-tab'));
    });
  });
  // A caption left empty in another language: show that language so the browser can point at it.
  form.addEventListener(
    'invalid',
    function (event) {
      const pane = event.target.closest('[data-locale-pane]');
      if (pane && pane.hidden) switchTo(pane.getAttribute('data-locale-pane'));
    },
    true,
  );

  let dragged = null;
  list.addEventListener('dragstart', function (event) {
    dragged = event.target.closest('li[data-slide]');
    if (!dragged || !event.dataTransfer) return;
    event.dataTransfer.effectAllowed = 'move';
    // Some browsers start no drag without data.
    event.dataTransfer.setData('text/plain', dragged.getAttribute('data-slide'));
  });
  list.addEventListener('dragover', function (event) {
    if (dragged) event.preventDefault();
  });
  list.addEventListener('drop', function (event) {
    const target = event.target.closest('li[data-slide]');
    if (!dragged || !target || target === dragged) return;
    event.preventDefault();
    const after = items().indexOf(dragged) < items().indexOf(target);
    list.insertBefore(dragged, after ? target.nextElementSibling : target);
    dragged = null;
    renumber();
  });
})();
