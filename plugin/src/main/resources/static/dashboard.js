/*
 * Quotient's dashboard: polls GET api/v1/dashboard and draws the teams' bars, the GPU map, the pending jobs and
 * the recent events. Plain JavaScript without a build step (see docs/user-guide.md, "Dashboard"); the whole page is
 * redrawn from each answer as one HTML string per section, which stays fast on large clusters.
 */
(function () {
  'use strict';

  const POLL_MS = 2000;
  const TOKEN_KEY = 'quotient.token';
  const $ = (id) => document.getElementById(id);

  /* ---------- authentication: a bearer token from the URL fragment (#token=...) or the input, per tab ---------- */

  function token() {
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (fragment.has('token')) {
      sessionStorage.setItem(TOKEN_KEY, fragment.get('token'));
      history.replaceState(null, '', location.pathname + location.search); // keep it out of the address bar
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  function headers() {
    const t = token();
    return t ? { Accept: 'application/json', Authorization: 'Bearer ' + t } : { Accept: 'application/json' };
  }

  /* ---------- formatting ---------- */

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, (c) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  function num(value) {
    const v = Number(value) || 0;
    return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
  }

  function pct(part, whole) {
    return whole > 0 ? Math.max(0, Math.min(100, (100 * part) / whole)) : 0;
  }

  function time(iso) {
    return iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '';
  }

  /** One colour per team, stable for the order the service lists the teams in (golden-angle hues). */
  function palette(teams) {
    const colours = new Map();
    teams.forEach((t, i) => colours.set(t.name, 'hsl(' + Math.round((i * 137.508 + 210) % 360) + ' 58% 52%)'));
    return (team) => colours.get(team) || '#8a8f9c';
  }

  /** The team's fair share when the service reports one (a field whose name starts with "fairShare"). */
  function fairShare(team) {
    const key = Object.keys(team).find((k) => /^fairShare/i.test(k) && typeof team[k] === 'number');
    return key ? team[key] : null;
  }

  /** "PT1H30M" as "1h30m": the fair-share half-life as the settings write it. */
  function duration(iso) {
    return String(iso).replace(/^PT?/, '').replace(/([HMS])/g, (u) => u.toLowerCase()).replace(/(\d+)D/, '$1d');
  }

  /** The fair-share column: the decayed usage and the over-quota share it leaves, or "instantaneous". */
  function fairness(t) {
    if (t.usageHalfLife == null) {
      return '<span class="fairness" data-fairness="instantaneous" title="fair shares have no memory' +
        ' (usage half-life 0)">fair share: instantaneous</span>';
    }
    return '<span class="fairness" data-fairness="decayed" data-decayed-usage="' + t.decayedUsageGpus +
      '" data-over-quota-share="' + t.overQuotaShareGpus + '" title="decayed past borrowing (half-life ' +
      esc(duration(t.usageHalfLife)) + ') and the share of idle GPUs beyond the guarantee it leaves">decayed usage ' +
      num(t.decayedUsageGpus) + ' → over-quota share ' + num(t.overQuotaShareGpus) + ' <small>(half-life ' +
      esc(duration(t.usageHalfLife)) + ')</small></span>';
  }

  /** Per model group of the team's quota: guaranteed, held, borrowed and its fair share there (empty: any model). */
  function modelGroups(t) {
    const groups = t.modelGroups || [];
    if (groups.length === 0) {
      return '';
    }
    return '<table class="groups"><thead><tr><th>model group</th><th>guaranteed</th><th>held</th><th>borrowed</th>' +
      '<th>fair share</th></tr></thead><tbody>' + groups.map((g) =>
      '<tr data-group="' + esc(g.name) + '" data-guaranteed="' + g.guaranteedGpus + '" data-held="' + g.heldGpus +
        '" data-borrowed="' + g.borrowedGpus + '" data-fair-share="' + g.fairShareGpus + '"><td>' + esc(g.name) +
        '</td><td>' + num(g.guaranteedGpus) + (g.maxGpus == null ? '' : ' <small>(max ' + num(g.maxGpus) + ')</small>') +
        '</td><td>' + num(g.heldGpus) + '</td><td>' + num(g.borrowedGpus) + '</td><td>' + num(g.fairShareGpus) +
        '</td></tr>').join('') + '</tbody></table>';
  }

  /* ---------- sections ---------- */

  function renderTeams(d, colour) {
    const total = d.cluster.totalGpus;
    const pendingGpus = new Map();
    d.pending.forEach((p) => pendingGpus.set(p.team, (pendingGpus.get(p.team) || 0) + p.gpus));
    $('cluster-summary').textContent = num(total) + ' GPUs in the cluster, ' + num(d.cluster.freeGpus) + ' free';
    const html = d.teams.map((t) => {
      const c = colour(t.name);
      const pending = pendingGpus.get(t.name) || 0;
      const fair = fairShare(t);
      const inQuotaW = pct(t.inQuotaGpus, total);
      const borrowedW = Math.min(pct(t.overQuotaGpus, total), 100 - inQuotaW);
      const pendingW = Math.min(pct(pending, total), 100 - inQuotaW - borrowedW);
      return '<div class="team" data-team="' + esc(t.name) + '" data-guaranteed="' + t.guaranteedGpus +
        '" data-in-quota="' + t.inQuotaGpus + '" data-borrowed="' + t.overQuotaGpus + '" data-pending="' + pending +
        '" data-pending-jobs="' + t.pendingJobs + '"' + (fair == null ? '' : ' data-fair-share="' + fair + '"') + '>' +
        '<span class="name" style="color:' + c + '">' + esc(t.name) + '</span>' +
        '<div class="bar">' +
        '<div class="seg inquota" style="width:' + inQuotaW + '%;background-color:' + c + '"></div>' +
        '<div class="seg borrowed" style="width:' + borrowedW + '%;background-color:' + c + '"></div>' +
        '<div class="seg pending" style="width:' + pendingW + '%;border-color:' + c + '"></div>' +
        '<div class="mark guarantee" style="left:' + pct(t.guaranteedGpus, total) + '%" title="guaranteed"></div>' +
        (fair == null ? '' : '<div class="mark fair" style="left:' + pct(fair, total) + '%" title="fair share"></div>') +
        '</div><span class="figures">guaranteed ' + num(t.guaranteedGpus) +
        (fair == null ? '' : ' · fair share ' + num(fair)) + ' · in quota ' + num(t.inQuotaGpus) +
        ' · borrowed ' + num(t.overQuotaGpus) + ' · pending ' + num(pending) + ' (' + t.pendingJobs + ' jobs)' +
        (t.maxGpus == null ? '' : ' · max ' + num(t.maxGpus)) + '</span>' + fairness(t) + modelGroups(t) + '</div>';
    });
    $('teams').innerHTML = html.join('') || '<p class="empty">no teams configured</p>';
  }

  function gpuCell(node, gpu, d, colour) {
    const used = 1 - gpu.free;
    let inner = '';
    let title = node.name + ' GPU ' + gpu.index + (gpu.uuid ? ' ' + gpu.uuid : '') + ': ' + num(gpu.free) + ' free';
    for (const s of gpu.jobs) {
      const key = s.team + '/' + s.name;
      const placed = d.placed[key];
      const borrowed = placed && placed.quotaState === 'OverQuota';
      const mib = Math.round(s.share * node.gpuMemoryMib);
      const idle = placed && placed.idle;
      inner += '<span class="share' + (borrowed ? ' borrowed' : '') + (idle ? ' idle-job' : '') + '" data-job="' + esc(key) + '" style="width:' +
        (100 * s.share) + '%;background-color:' + colour(s.team) + '"></span>';
      title += '\n' + key + ' ' + num(s.share) + ' (' + mib + ' MiB reserved' + (borrowed ? ', borrowed' : '');
      if (placed && placed.limitPerGpu != null && placed.limitPerGpu > s.share) {
        const loan = Math.min(placed.limitPerGpu, 1) - s.share;
        title += ', may burst to ' + num(placed.limitPerGpu) + ': ' + Math.round(loan * node.gpuMemoryMib) + ' MiB loaned';
        if (s.share < 1) {
          inner += '<span class="loan" style="width:' + (100 * Math.min(loan, gpu.free)) + '%"></span>';
        }
      }
      title += ')' + (idle ? '\nidle: ' + idle : '');
    }
    const part = used > 0.0005 && gpu.free > 0.0005;
    if (part) {
      inner += '<span class="fr"></span>';
    }
    return '<div class="gpu' + (part ? ' part' : '') + (used <= 0.0005 ? ' idle' : '') + '" data-gpu="' + esc(node.name) +
      '/' + gpu.index + '" data-free="' + gpu.free + '" title="' + esc(title) + '">' + inner + '</div>';
  }

  function renderMap(d, colour) {
    const c = d.cluster;
    const f = c.fragmentation || {};
    $('map-summary').textContent = c.nodes.length + ' nodes · ' + c.wholeFreeGpus + ' whole GPUs free on ' +
      c.wholeFreeNodes + ' empty nodes · fragmentation ' + num(f.amountPercent) + ' % of all GPUs (' +
      num(f.fragmentedGpus) + ' GPUs stranded)';
    const parts = [];
    for (const n of c.nodes) {
      const fragmented = n.fragmentedGpus > 0.005;
      parts.push('<div class="node' + (fragmented ? ' fragmented' : '') + (n.fractionReady ? '' : ' not-ready') +
        '" data-node="' + esc(n.name) + '" data-fragmented="' + n.fragmentedGpus + '"><div class="nh"><b>' +
        esc(n.name) + '</b> ' + esc(n.gpuModel || '') + ' · ' + num(n.freeGpus) + ' free' +
        (fragmented ? ' · ' + num(n.fragmentedGpus) + ' fragmented' : '') + '</div><div class="gpus">');
      for (const g of n.gpus) {
        parts.push(gpuCell(n, g, d, colour));
      }
      parts.push('</div></div>');
    }
    $('map').innerHTML = parts.join('') || '<p class="empty">no GPU nodes</p>';
  }

  function renderPending(d, colour) {
    $('pending-summary').textContent = d.pending.length + ' jobs';
    $('pending').tBodies[0].innerHTML = d.pending.map((p) =>
      '<tr data-job="' + esc(p.team + '/' + p.name) + '"><td style="color:' + colour(p.team) + '">' + esc(p.team) +
      '</td><td>' + esc(p.name) + '</td><td class="num">' + num(p.gpus) + '</td><td>' + esc(time(p.createdAt)) +
      '</td><td class="why">' + esc(p.reason || p.phase) + '</td></tr>').join('') ||
      '<tr><td colspan="5" class="empty">nothing waits</td></tr>';
  }

  function renderHistory(d, colour) {
    // Pending events repeat what the pending table says; the history is about what changed
    const items = d.recent.filter((e) => e.reason !== 'Pending').reverse();
    $('history').innerHTML = items.map((e) =>
      '<li data-reason="' + esc(e.reason) + '" data-job="' + esc((e.team || '') + '/' + e.job) + '"><span class="t">' +
      esc(time(e.at)) + '</span><span class="r ' + esc(e.reason) + '">' + esc(e.reason) + '</span> <b style="color:' +
      colour(e.team) + '">' + esc(e.team ? e.team + '/' + e.job : e.job) + '</b> ' + esc(e.message) + '</li>').join('') ||
      '<li class="empty">no events yet</li>';
  }

  /** Draws one answer of GET api/v1/dashboard; returns the milliseconds it took, layout included. */
  function render(d) {
    const started = performance.now();
    const colour = palette(d.teams);
    renderTeams(d, colour);
    renderMap(d, colour);
    renderPending(d, colour);
    renderHistory(d, colour);
    void document.body.offsetHeight; // force the layout so that the figure includes it
    return performance.now() - started;
  }

  /* ---------- polling ---------- */

  function showError(text) {
    const box = $('error');
    box.textContent = text || '';
    box.hidden = !text;
  }

  let timer = null;
  let stopped = false;

  async function poll() {
    clearTimeout(timer);
    try {
      const answer = await fetch('api/v1/dashboard', { headers: headers(), cache: 'no-store' });
      if (answer.status === 401) {
        showError('The service asks for authentication (401): enter a valid bearer token above and press "Use token"' +
          (token() ? ' — the token in use was refused.' : '.'));
        $('status').textContent = 'not authenticated';
      } else if (answer.status === 403) {
        showError('This token may not read the dashboard (403): ask for a token with read access, or use another one.');
        $('status').textContent = 'forbidden';
      } else if (!answer.ok) {
        showError('The service answered ' + answer.status + ': ' + (await answer.text()).slice(0, 300));
      } else {
        const data = await answer.json();
        const ms = render(data);
        showError('');
        $('status').textContent = 'updated ' + time(data.at) + ' · drawn in ' + Math.round(ms) + ' ms · every ' +
          POLL_MS / 1000 + ' s';
        document.body.dataset.updated = data.at;
        if (window.quotientUsagePanel) {
          window.quotientUsagePanel.refresh(data.at, headers, palette(data.teams));
        }
      }
    } catch (e) {
      showError('Cannot reach the Quotient service (' + e.message + '); retrying every ' + POLL_MS / 1000 + ' s.');
      $('status').textContent = 'offline';
    }
    if (!stopped) {
      timer = setTimeout(poll, POLL_MS);
    }
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('token').value.trim();
    if (value) {
      sessionStorage.setItem(TOKEN_KEY, value);
    }
    $('token').value = '';
    poll();
  });
  $('token-forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    poll();
  });

  /** Stops polling (the render benchmark draws its own payloads). */
  function stop() {
    clearTimeout(timer);
    stopped = true;
  }

  window.quotientDashboard = { render, poll, stop };
  poll();
})();
