// shotgen dashboard: copy-to-clipboard and live job status. Progressive enhancement only: every
// page works without this file. Loaded from /assets (the CSP allows no inline script).
'use strict';

function copyText(input) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(input.value);
  input.select();
  return document.execCommand('copy') ? Promise.resolve() : Promise.reject(new Error('copy refused'));
}

document.addEventListener('click', function (event) {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const id = button.getAttribute('data-copy');
  const input = document.getElementById(id);
  const status = document.querySelector('[data-copy-status="' + id + '"]');
  if (!input) return;
  copyText(input).then(
    function () {
      button.textContent = 'Copied';
      if (status) status.textContent = button.getAttribute('data-copied') || 'Copied to your clipboard.';
    },
    function () {
      input.select();
      if (status) status.textContent = 'Copying is not allowed here: it is selected, press Ctrl+C (or ⌘C).';
    },
  );
});

// A select whose options carry data-hint shows the chosen option's hint (e.g. what a voice means).
document.addEventListener('change', function (event) {
  const select = event.target.closest('select[data-hint-target]');
  if (!select) return;
  const hint = document.getElementById(select.getAttribute('data-hint-target'));
  const chosen = select.options[select.selectedIndex];
  if (hint && chosen) hint.textContent = chosen.getAttribute('data-hint') || '';
});

const LABELS = { queued: 'Queued', running: 'Running', succeeded: 'Done', failed: 'Failed' };

function watch(box) {
  const url = box.getAttribute('data-live');
  const statusEl = box.querySelector('[data-live-status]');
  const progressEl = box.querySelector('[data-live-progress]');
  const bar = box.querySelector('[data-live-bar]');
  let delay = 1000;
  function poll() {
    fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
      .then(function (res) {
        if (!res.ok) throw new Error('status ' + res.status);
        return res.json();
      })
      .then(function (job) {
        delay = 1000;
        statusEl.textContent = LABELS[job.status] || job.status;
        if (job.progress) {
          progressEl.textContent =
            ' · ' + job.progress.done + ' of ' + job.progress.total + (job.progress.total === 1 ? ' slide' : ' slides');
          bar.max = job.progress.total;
          bar.value = job.progress.done;
        }
        // Finished: the server renders the gallery (or the error) into the page.
        if (job.status === 'succeeded' || job.status === 'failed') window.location.reload();
        else setTimeout(poll, delay);
      })
      .catch(function () {
        delay = Math.min(delay * 2, 15000);
        setTimeout(poll, delay);
      });
  }
  setTimeout(poll, delay);
}

document.querySelectorAll('[data-live]').forEach(watch);

// An app icon the store's image host did not serve: hidden, so the app's initial under it shows.
function hideBroken(img) {
  if (img.complete && img.naturalWidth === 0) img.hidden = true;
}
document.addEventListener(
  'error',
  function (event) {
    if (event.target.tagName === 'IMG' && event.target.closest('.icon')) event.target.hidden = true;
  },
  true,
);
document.querySelectorAll('.icon img').forEach(hideBroken);
