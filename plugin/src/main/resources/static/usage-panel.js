/*
 * The dashboard's usage panel: GPU-hours allocated, used, idle and unmeasured per team over a window (the last
 * 24 hours by the hour, or the last 7 or 30 UTC days by the day), from GET api/v1/usage?groupBy=team&bucket=...,
 * as one bar per team and a chart over time (SVG built here: the page's CSP allows no inline script).
 * dashboard.js calls refresh() after each of its polls; windows are counted back from the service's clock.
 */
(function () {
  'use strict';

  /** The service's usage interval: the figures change no faster than this. */
  const REFRESH_MS = 10000;
  const HOUR = 3600 * 1000;
  const DAY = 24 * HOUR;
  const WINDOWS = {
    '24h': { bucket: 'hour', size: HOUR, count: 24, label: 'the last 24 hours by the hour (UTC)' },
    '7d': { bucket: 'day', size: DAY, count: 7, label: 'the last 7 UTC days by the day' },
    '30d': { bucket: 'day', size: DAY, count: 30, label: 'the last 30 UTC days by the day' },
  };
  const FIGURES = ['allocatedGpuHours', 'inQuotaGpuHours', 'borrowedGpuHours', 'usedGpuHours', 'idleGpuHours',
    'unmeasuredGpuHours'];
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);

  let chosen = '24h';
  let fetchedAt = 0;
  let inFlight = false;
  let again = false; // a window chosen while an answer was on its way: load once more when it is in
  let context = null; // the latest { at, headers, colour } dashboard.js passed

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, (c) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  /** Rounded as the API rounds (4 decimals), so that sums do not show floating-point noise. */
  function round(v) {
    return Math.round(v * 1e4) / 1e4;
  }

  function num(v) {
    return round(v).toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
  }

  function utcDay(ms) {
    return new Date(ms).toISOString().slice(0, 10);
  }

  /** The starts of the window's buckets, oldest first; the last one holds the service's "now". */
  function starts(w, atMs) {
    const current = Math.floor(atMs / w.size) * w.size;
    const list = [];
    for (let i = w.count - 1; i >= 0; i--) {
      list.push(current - i * w.size);
    }
    return list;
  }

  function label(w, ms) {
    const iso = new Date(ms).toISOString();
    return w.bucket === 'hour' ? iso.slice(11, 16) : iso.slice(5, 10);
  }

  /** Per team: the window's totals and, per bucket start, its figures; teams in the API's order. */
  function collect(rows, keep) {
    const teams = new Map();
    for (const r of rows) {
      const at = Date.parse(r.bucket);
      if (!keep.has(at)) {
        continue;
      }
      if (!teams.has(r.team)) {
        const sums = {};
        FIGURES.forEach((f) => { sums[f] = 0; });
        teams.set(r.team, { sums, buckets: new Map() });
      }
      const t = teams.get(r.team);
      FIGURES.forEach((f) => { t.sums[f] += r[f]; });
      t.buckets.set(at, r);
    }
    return teams;
  }

  function pct(part, whole) {
    return whole > 0 ? Math.max(0, Math.min(100, (100 * part) / whole)) : 0;
  }

  function renderTeams(teams, colour) {
    let max = 0;
    teams.forEach((t) => { max = Math.max(max, t.sums.allocatedGpuHours); });
    const html = [];
    teams.forEach((t, name) => {
      const s = t.sums;
      const c = colour(name);
      const measured = s.usedGpuHours + s.idleGpuHours;
      html.push('<div class="uteam" data-team="' + esc(name) + '"' +
        FIGURES.map((f) => ' data-' + f.replace(/GpuHours$/, '').replace(/[A-Z]/g, (x) => '-' + x.toLowerCase()) +
          '="' + round(s[f]) + '"').join('') + '>' +
        '<span class="name" style="color:' + c + '">' + esc(name) + '</span><div class="ubar">' +
        '<div class="seg used" style="width:' + pct(s.usedGpuHours, max) + '%;background-color:' + c + '"></div>' +
        '<div class="seg idle" style="width:' + pct(s.idleGpuHours, max) + '%;border-color:' + c + '"></div>' +
        '<div class="seg unmeasured" style="width:' + pct(s.unmeasuredGpuHours, max) + '%"></div></div>' +
        '<span class="figures">allocated ' + num(s.allocatedGpuHours) + ' GPU-h (in quota ' +
        num(s.inQuotaGpuHours) + ' · borrowed ' + num(s.borrowedGpuHours) + ') · used ' + num(s.usedGpuHours) +
        ' · idle ' + num(s.idleGpuHours) + ' · unmeasured ' + num(s.unmeasuredGpuHours) +
        (measured > 0 ? ' · utilization ' + Math.round((100 * s.usedGpuHours) / measured) + ' %' : '') +
        '</span></div>');
    });
    $('usage-teams').innerHTML = html.join('') || '<p class="empty">no GPU-hours in this window</p>';
  }

  function node(tag, attributes, text) {
    const element = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach((k) => element.setAttribute(k, attributes[k]));
    if (text != null) {
      element.textContent = text;
    }
    return element;
  }

  /** One column per bucket: each team's allocation stacked, its used part in full colour, the rest paler. */
  function renderChart(w, buckets, teams, colour) {
    const box = $('usage-chart');
    const width = Math.max(480, box.clientWidth || 960); // drawn at the box's width: text keeps its size
    const height = 170;
    const left = 72;
    const bottom = 18;
    const plot = height - bottom - 6;
    const step = (width - left) / buckets.length;
    let max = 0;
    buckets.forEach((at) => {
      let stack = 0;
      teams.forEach((t) => { stack += t.buckets.has(at) ? t.buckets.get(at).allocatedGpuHours : 0; });
      max = Math.max(max, stack);
    });
    const svg = node('svg', { viewBox: '0 0 ' + width + ' ' + height, class: 'uchart', role: 'img',
      'aria-label': 'GPU-hours allocated and used per team over ' + w.label });
    svg.appendChild(node('line', { x1: left, y1: height - bottom, x2: width, y2: height - bottom, class: 'axis' }));
    svg.appendChild(node('text', { x: left - 4, y: 12, class: 'tick end' }, num(max) + ' GPU-h'));
    svg.appendChild(node('text', { x: left - 4, y: height - bottom, class: 'tick end' }, '0'));
    const every = Math.ceil(buckets.length / 12);
    buckets.forEach((at, i) => {
      const x = left + i * step + step * 0.1;
      let y = height - bottom;
      teams.forEach((t, name) => {
        const r = t.buckets.get(at);
        if (!r || max <= 0 || r.allocatedGpuHours <= 0) {
          return;
        }
        const h = (plot * r.allocatedGpuHours) / max;
        const used = (plot * Math.min(r.usedGpuHours, r.allocatedGpuHours)) / max;
        y -= h;
        const group = node('g', { 'data-team': name, 'data-bucket': new Date(at).toISOString(),
          'data-allocated': round(r.allocatedGpuHours), 'data-used': round(r.usedGpuHours) });
        group.appendChild(node('title', {}, name + ' ' + label(w, at) + ': allocated ' + num(r.allocatedGpuHours) +
          ' GPU-h, used ' + num(r.usedGpuHours) + ', idle ' + num(r.idleGpuHours) + ', unmeasured ' +
          num(r.unmeasuredGpuHours)));
        group.appendChild(node('rect', { x, y, width: step * 0.8, height: h, class: 'alloc',
          style: 'fill:' + colour(name) }));
        group.appendChild(node('rect', { x, y: y + h - used, width: step * 0.8, height: used, class: 'use',
          style: 'fill:' + colour(name) }));
        svg.appendChild(group);
      });
      if (i % every === 0) {
        svg.appendChild(node('text', { x: x + step * 0.4, y: height - 4, class: 'tick mid' }, label(w, at)));
      }
    });
    box.textContent = '';
    box.appendChild(svg);
  }

  function draw(key, rows, atMs, colour) {
    const w = WINDOWS[key];
    const buckets = starts(w, atMs);
    const teams = collect(rows, new Set(buckets));
    renderTeams(teams, colour);
    renderChart(w, buckets, teams, colour);
    const section = $('usage-section');
    section.dataset.window = key;
    section.dataset.from = new Date(buckets[0]).toISOString();
    section.dataset.at = new Date(atMs).toISOString();
    $('usage-summary').textContent = 'GPU-hours over ' + w.label + ' · ' +
      new Date(atMs).toISOString().slice(11, 19) + ' UTC';
  }

  async function load() {
    if (!context) {
      return;
    }
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    const key = chosen;
    const w = WINDOWS[key];
    const atMs = Date.parse(context.at);
    const from = utcDay(starts(w, atMs)[0]);
    try {
      const answer = await fetch('api/v1/usage?groupBy=team&bucket=' + w.bucket + '&from=' + from + '&to=' +
        utcDay(atMs), { headers: context.headers(), cache: 'no-store' });
      if (answer.ok) {
        draw(key, await answer.json(), atMs, context.colour);
        fetchedAt = Date.now();
      } else {
        $('usage-summary').textContent = 'usage not available: the service answered ' + answer.status;
      }
    } catch (e) {
      $('usage-summary').textContent = 'usage not available (' + e.message + ')';
    } finally {
      inFlight = false;
      if (again) {
        again = false;
        load();
      }
    }
  }

  /**
   * Called by dashboard.js after each poll.
   *
   * @param at      the service's time of the dashboard answer (ISO): windows end there
   * @param headers a function giving the request headers (the bearer token)
   * @param colour  the team colours of the teams view
   */
  function refresh(at, headers, colour) {
    context = { at, headers, colour };
    if (Date.now() - fetchedAt >= REFRESH_MS) {
      load();
    }
  }

  $('usage-window').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-window]');
    if (!button || !WINDOWS[button.dataset.window]) {
      return;
    }
    chosen = button.dataset.window;
    document.querySelectorAll('#usage-window button').forEach((b) =>
      b.setAttribute('aria-pressed', String(b === button)));
    load();
  });

  window.quotientUsagePanel = { refresh };
})();
