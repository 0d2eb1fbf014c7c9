// shotgen dashboard: a publication's live progress. Progressive enhancement only: without this
// file the page shows the state as of its load and a refresh link, and Approve is a plain form.
'use strict';

(function () {
  const box = document.querySelector('[data-publication]');
  if (!box) return;
  const url = box.getAttribute('data-publication');
  const shownStatus = box.getAttribute('data-status');
  const shownItems = Number(box.getAttribute('data-items'));
  const badge = box.querySelector('[data-pub-badge]');
  const progress = box.querySelector('[data-pub-progress]');
  const bar = box.querySelector('[data-pub-bar]');
  let delay = 1000;

  function show(view) {
    badge.textContent = view.label;
    badge.className = 'badge ' + view.badge;
    progress.textContent = view.progress.text;
    if (bar) {
      bar.max = Math.max(view.progress.total, 1);
      bar.value = view.progress.done;
    }
    view.items.forEach(function (item, i) {
      const cell = document.querySelector('[data-item="' + i + '"]');
      if (cell && cell.textContent !== item.label) {
        cell.textContent = item.label;
        cell.setAttribute('data-state', item.state);
      }
      const err = document.querySelector('[data-item-error="' + i + '"]');
      if (err) err.textContent = item.error || '';
    });
  }

  function poll() {
    fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
      .then(function (res) {
        if (!res.ok) throw new Error('status ' + res.status);
        return res.json();
      })
      .then(function (view) {
        delay = 1000;
        // A new plan (planning done, or planned again on approval), a decision to make, or the end:
        // the server renders the page anew (the plan table, the Approve form, the outcome).
        const settled = view.status === 'awaiting_approval' || view.status === 'published' || view.status === 'failed';
        if (view.items.length !== shownItems || (settled && view.status !== shownStatus)) {
          window.location.reload();
          return;
        }
        show(view);
        setTimeout(poll, delay);
      })
      .catch(function () {
        delay = Math.min(delay * 2, 15000);
        setTimeout(poll, delay);
      });
  }
  setTimeout(poll, delay);
})();
