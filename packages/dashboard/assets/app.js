// The bullswarm dashboard page: plain JavaScript, no build step, no network but this server.
// Every value from the server is put in the page as text (textContent), never as HTML.

(() => {
  const TOKEN = document.querySelector('meta[name="bullswarm-token"]').content;
  const main = document.getElementById('main');
  const liveBadge = document.getElementById('live');
  const charts = [];

  // ---- small helpers -------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'class') el.className = value;
      else if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
      else el.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  // The server's clock minus this browser's (the home may run on BULLSWARM_NOW, or another clock).
  let clockOffset = 0;
  const serverNow = () => Date.now() + clockOffset;

  async function api(path, init) {
    const response = await fetch(path, { credentials: 'same-origin', ...init });
    const now = Number(response.headers.get('X-Bullswarm-Now'));
    if (Number.isFinite(now) && now > 0) clockOffset = now - Date.now();
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
    return body;
  }

  function post(path, body) {
    return api(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Bullswarm-Token': TOKEN },
      body: JSON.stringify(body || {}),
    });
  }

  const fmtPct = (v) => (v === null || v === undefined ? '-' : `${Math.round(v * 10) / 10}%`);
  const fmtPts = (v) =>
    v === null || v === undefined ? '-' : `${v >= 0 ? '+' : '−'}${Math.abs(Math.round(v * 10) / 10)} pts`;
  const fmtTime = (v) => {
    if (v === null || v === undefined) return '-';
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? String(v) : d.toISOString().replace('T', ' ').slice(0, 19) + 'Z';
  };
  function fmtDuration(ms) {
    if (ms === null || ms === undefined || Number.isNaN(ms)) return '-';
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s}s`;
    const m = Math.floor(s / 60);
    if (m < 60) return `${m}m ${s % 60}s`;
    const hrs = Math.floor(m / 60);
    if (hrs < 48) return `${hrs}h ${m % 60}m`;
    return `${Math.floor(hrs / 24)}d ${hrs % 24}h`;
  }
  function countdown(iso) {
    return h('span', { class: 'countdown', 'data-until': iso }, countdownText(iso));
  }
  function countdownText(iso) {
    if (!iso) return 'reset unknown';
    const left = new Date(iso).getTime() - serverNow();
    return left <= 0 ? 'resetting now' : `resets in ${fmtDuration(left)}`;
  }
  setInterval(() => {
    for (const el of document.querySelectorAll('.countdown'))
      el.textContent = countdownText(el.dataset.until);
  }, 1000);

  function stateWord(word) {
    return h('span', { class: `state ${String(word).toLowerCase()}` }, String(word).toUpperCase());
  }

  const MARKS = {
    ok: '✓',
    failed: '✗',
    'needs-you': '↩',
    blocked: '⋈',
    running: '▶',
    pending: '·',
    skipped: '=',
  };
  function mark(status) {
    return h('span', { class: 'mark', 'aria-hidden': 'true' }, MARKS[status] || '?');
  }

  function table(columns, rows, options = {}) {
    return h(
      'table',
      { 'aria-label': options.label },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.title)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.length === 0
          ? h('tr', {}, h('td', { colspan: columns.length, class: 'muted' }, options.empty || 'none'))
          : rows.map((row) =>
              h(
                'tr',
                { 'data-key': options.key ? options.key(row) : null },
                columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.cell(row))),
              ),
            ),
      ),
    );
  }

  function destroyCharts() {
    while (charts.length > 0) charts.pop().destroy();
  }

  // ---- pages ---------------------------------------------------------------------------------
  const pages = {
    async pools() {
      const [{ now, pools }, { histories }] = await Promise.all([
        api('/api/pools'),
        api('/api/pools/history'),
      ]);
      const byId = new Map(histories.map((x) => [x.poolId, x]));
      const content = [
        h('h1', {}, 'Pools'),
        h(
          'p',
          { class: 'muted' },
          `${pools.length} pool${pools.length === 1 ? '' : 's'} · read at ${fmtTime(now)} · the bar is used, the line is the time elapsed`,
        ),
      ];
      if (pools.length === 0) content.push(h('p', {}, 'No pools yet: run `bullswarm setup`.'));
      const grid = h('div', { class: 'grid' });
      const pending = [];
      for (const pool of pools) {
        const history = byId.get(pool.id);
        const card = poolCard(pool, history);
        grid.append(card.el);
        if (card.chart) pending.push(card.chart);
      }
      content.push(grid);
      return {
        content,
        // Charts are drawn a few per frame after the cards show: the numbers are usable at once.
        after: () => {
          const ticket = rendering;
          const next = () => {
            if (ticket !== rendering) return;
            for (const draw of pending.splice(0, 6)) draw();
            if (pending.length > 0) requestAnimationFrame(next);
          };
          requestAnimationFrame(next);
        },
      };
    },

    async why(params) {
      const options = await api('/api/why/options');
      const lane = params.get('lane') || 'analyze';
      const effort = params.get('effort') || options.defaults[lane] || 'medium';
      const laneSelect = h(
        'select',
        { id: 'why-lane', name: 'lane' },
        options.lanes.map((l) => h('option', { value: l, selected: l === lane }, l)),
      );
      const effortSelect = h(
        'select',
        { id: 'why-effort', name: 'effort' },
        options.tiers.map((t) => h('option', { value: t, selected: t === effort }, t)),
      );
      const form = h(
        'form',
        {
          class: 'inline',
          onsubmit: (event) => {
            event.preventDefault();
            location.hash = `#/why?lane=${encodeURIComponent(laneSelect.value)}&effort=${encodeURIComponent(effortSelect.value)}`;
          },
        },
        h('label', { for: 'why-lane' }, 'Lane', laneSelect),
        h('label', { for: 'why-effort' }, 'Effort', effortSelect),
        h('button', { type: 'submit', id: 'why-go' }, 'Show the decision'),
      );
      const decision = await api(
        `/api/why?lane=${encodeURIComponent(lane)}&effort=${encodeURIComponent(effort)}`,
      );
      return {
        content: [
          h('h1', {}, 'Why this pool?'),
          h(
            'p',
            { class: 'muted' },
            'The dry-run decision for a task of this lane and effort, with the live meters: every candidate in preference order and every pool left out. Nothing runs.',
          ),
          form,
          whyResult(decision),
        ],
      };
    },

    async runs() {
      const { runs, attempts } = await api('/api/runs');
      return {
        content: [
          h('h1', {}, 'Runs'),
          table(
            [
              { title: 'Started', cell: (r) => fmtTime(r.startedAt) },
              { title: 'Run', cell: (r) => h('a', { href: `#/runs/${r.runId}` }, r.runId) },
              { title: 'Pool', cell: (r) => r.poolLabel || '-' },
              { title: 'Lane', cell: (r) => `${r.lane} · ${r.tier}` },
              { title: 'Verdict', cell: (r) => stateWord(r.status === 'running' ? 'running' : r.kind) },
              {
                title: 'Duration',
                num: true,
                cell: (r) =>
                  fmtDuration((r.endedAt ? new Date(r.endedAt) : serverNow()) - new Date(r.startedAt)),
              },
              {
                title: 'Reason',
                cell: (r) => (r.why && !r.ok ? `${r.reason || ''} — ${r.why}` : r.reason || '-'),
              },
            ],
            runs,
            { label: 'Recent runs', empty: 'no runs yet (bullswarm run …)', key: (r) => r.runId },
          ),
          h('h2', {}, 'Recent attempts'),
          h(
            'p',
            { class: 'muted' },
            'Every dispatch the store recorded (runs and workflow steps), newest first.',
          ),
          table(
            [
              { title: 'Started', cell: (a) => fmtTime(a.startedAt) },
              { title: 'Action', cell: (a) => a.action },
              { title: 'Pool', cell: (a) => a.poolLabel },
              { title: 'Lane', cell: (a) => `${a.lane} · ${a.tier}` },
              { title: 'Model', cell: (a) => a.model || '-' },
              { title: 'Verdict', cell: (a) => stateWord(a.outcome) },
              { title: 'Duration', num: true, cell: (a) => fmtDuration(a.durationMs) },
              { title: 'Failure', cell: (a) => a.failureKind || '-' },
            ],
            attempts,
            { label: 'Recent attempts', empty: 'no attempts recorded' },
          ),
        ],
      };
    },

    async run(_params, runId) {
      const { run, transcripts } = await api(`/api/runs/${encodeURIComponent(runId)}`);
      return {
        content: [
          h('p', {}, h('a', { href: '#/runs' }, '← Runs')),
          h('h1', {}, `Run ${run.runId}`),
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Verdict'),
            h('dd', {}, stateWord(run.status === 'running' ? 'running' : run.kind)),
            h('dt', {}, 'Pool'),
            h('dd', {}, run.poolLabel || '-'),
            h('dt', {}, 'Model'),
            h('dd', {}, run.model || '-'),
            h('dt', {}, 'Lane'),
            h('dd', {}, `${run.lane} · ${run.tier}`),
            h('dt', {}, 'Reason'),
            h('dd', {}, run.reason || '-'),
            run.why ? [h('dt', {}, 'Why'), h('dd', {}, run.why)] : null,
            run.backAt ? [h('dt', {}, 'Back at'), h('dd', {}, fmtTime(run.backAt))] : null,
            h('dt', {}, 'Started'),
            h('dd', {}, fmtTime(run.startedAt)),
            h('dt', {}, 'Ended'),
            h('dd', {}, fmtTime(run.endedAt)),
          ),
          h('h2', {}, 'Attempts'),
          table(
            [
              { title: '#', num: true, cell: (a) => a.attempt },
              { title: 'Pool', cell: (a) => a.poolLabel },
              { title: 'Verdict', cell: (a) => stateWord(a.kind) },
              {
                title: 'Duration',
                num: true,
                cell: (a) => fmtDuration(new Date(a.endedAt) - new Date(a.startedAt)),
              },
              { title: 'Reason', cell: (a) => a.reason },
              { title: 'Why', cell: (a) => a.why || '-' },
            ],
            run.attempts,
            { label: 'Attempts', empty: run.status === 'running' ? 'running…' : 'no attempt' },
          ),
          h('h2', {}, 'Transcript'),
          transcripts.length === 0 ? h('p', { class: 'muted' }, 'no attempt output yet') : null,
          transcripts.map((t) => [
            h('h3', {}, `Attempt ${t.attempt}${t.truncated ? ' (the end of it)' : ''}`),
            h(
              'pre',
              { tabindex: '0', 'aria-label': `attempt ${t.attempt} output` },
              t.stdout || '(no output)',
            ),
            t.stderr
              ? h('details', {}, h('summary', {}, 'stderr'), h('pre', { tabindex: '0' }, t.stderr))
              : null,
          ]),
        ],
      };
    },

    async workflows() {
      const rows = await api('/api/workflows');
      return {
        content: [
          h('h1', {}, 'Workflows'),
          table(
            [
              { title: 'Run', cell: (r) => h('a', { href: `#/workflows/${r.runId}` }, r.runId) },
              { title: 'Name', cell: (r) => r.name || '-' },
              { title: 'Status', cell: (r) => (r.problem ? stateWord('unknown') : stateWord(r.outcome)) },
              {
                title: 'Steps',
                cell: (r) =>
                  r.problem ||
                  `✓ ${r.counts.ok} ok · ✗ ${r.counts.failed} failed · ↩ ${r.counts.needsYou} need you · ⋈ ${r.counts.blocked} blocked` +
                    (r.counts.running + r.counts.pending > 0
                      ? ` · ${r.counts.running + r.counts.pending} to go`
                      : ''),
              },
              { title: 'Started', cell: (r) => fmtTime(r.createdAt) },
            ],
            rows,
            {
              label: 'Workflow runs',
              empty: 'no workflow runs (bullswarm workflow goal <program>)',
              key: (r) => r.runId,
            },
          ),
        ],
      };
    },

    async workflow(_params, runId) {
      const report = await api(`/api/workflows/${encodeURIComponent(runId)}`);
      const busy = report.live || report.drivenByDashboard;
      const message = h('p', { id: 'action-message', role: 'status', 'aria-live': 'polite' });
      const act = async (button, path, body) => {
        button.disabled = true;
        message.textContent = 'starting…';
        try {
          await post(path, body);
          message.textContent = 'started: the page follows the run';
        } catch (error) {
          message.textContent = error.message;
          button.disabled = false;
        }
      };
      const resume = h(
        'button',
        {
          type: 'button',
          id: 'resume',
          disabled: busy || report.viewOnly || report.outcome === 'ok',
          onclick: (e) => act(e.currentTarget, `/api/workflows/${encodeURIComponent(runId)}/resume`),
        },
        'Resume',
      );
      const levels = new Map();
      for (const step of report.steps) {
        if (!levels.has(step.level)) levels.set(step.level, []);
        levels.get(step.level).push(step);
      }
      const graph = h(
        'div',
        { class: 'graph', role: 'list', 'aria-label': 'Steps by level' },
        [...levels.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([level, steps]) =>
            h(
              'div',
              { class: 'level', role: 'listitem' },
              h('div', { class: 'caption' }, `level ${level}`),
              steps.map((step) => stepBox(runId, step, report.times[step.id], busy || report.viewOnly, act)),
            ),
          ),
      );
      return {
        content: [
          h('p', {}, h('a', { href: '#/workflows' }, '← Workflows')),
          h('h1', {}, `Workflow ${report.name || ''} ${runId}`),
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Outcome'),
            h('dd', {}, stateWord(report.outcome), report.live ? ' (a process drives it now)' : ''),
            h('dt', {}, 'Counts'),
            h(
              'dd',
              {},
              `✓ ${report.counts.ok} · ✗ ${report.counts.failed} · ↩ ${report.counts.needsYou} · ⋈ ${report.counts.blocked}`,
            ),
            h('dt', {}, 'Work tree'),
            h('dd', {}, report.cwd),
            h('dt', {}, 'Elapsed'),
            h('dd', {}, fmtDuration(report.elapsedMs)),
          ),
          report.dashboardError ? h('p', { class: 'error' }, report.dashboardError) : null,
          h('p', {}, resume, ' ', message),
          graph,
          report.needsYou.length > 0
            ? [
                h('h2', {}, 'Needs you'),
                table(
                  [
                    { title: 'Step', cell: (n) => (n.label ? `${n.step} · ${n.label}` : n.step) },
                    { title: 'Status', cell: (n) => stateWord(n.status) },
                    { title: 'Why', cell: (n) => n.why },
                    { title: 'Back at', cell: (n) => fmtTime(n.backAt) },
                  ],
                  report.needsYou,
                  { label: 'Needs you' },
                ),
              ]
            : null,
        ],
      };
    },

    async swarm() {
      const data = await api('/api/swarm');
      return {
        content: [
          h('h1', {}, 'Swarm'),
          h('h2', {}, 'Capacity'),
          table(
            [
              { title: 'Pool', cell: (c) => c.label },
              { title: 'Verdict', cell: (c) => stateWord(c.verdict) },
              { title: 'Free', num: true, cell: (c) => fmtPct(c.freePct) },
              { title: 'Binding window', cell: (c) => c.bindingWindow || '-' },
              { title: 'Reason', cell: (c) => c.reason },
            ],
            data.capacity,
            { label: 'Capacity verdicts', empty: 'no pools' },
          ),
          h('h2', {}, 'Plans'),
          data.plans.length === 0 ? h('p', { class: 'muted' }, 'no plan has a lead record') : null,
          data.plans.map((plan) =>
            h(
              'section',
              { class: 'card', 'aria-label': `plan ${plan.plan}` },
              h('h3', {}, `Plan ${plan.plan}`),
              h(
                'dl',
                { class: 'facts' },
                h('dt', {}, 'Lead'),
                h(
                  'dd',
                  {},
                  `${plan.lead.lead} · epoch ${plan.lead.epoch}`,
                  plan.lead.releasedAt ? ' · released' : '',
                ),
                h('dt', {}, 'Succession'),
                h(
                  'dd',
                  {},
                  plan.succession.length === 0
                    ? '-'
                    : plan.succession.map((s) => `${s.address} (${s.source})`).join(' → '),
                ),
                h('dt', {}, 'Lanes'),
                h('dd', {}, plan.lead.lanes.join(', ') || '-'),
                h('dt', {}, 'Open escalations'),
                h('dd', {}, String(plan.openEscalations)),
              ),
              plan.planProblem ? h('p', { class: 'error' }, plan.planProblem) : null,
              plan.tasks
                ? table(
                    [
                      { title: 'Task', cell: (t) => t.task },
                      { title: 'State', cell: (t) => stateWord(t.state) },
                      { title: 'Holder', cell: (t) => t.holder || '-' },
                      {
                        title: 'Waits for',
                        cell: (t) =>
                          [...t.waitingFor, ...t.blockedBy.map((id) => `escalation #${id}`)].join(', ') ||
                          '-',
                      },
                    ],
                    plan.tasks,
                    { label: `tasks of ${plan.plan}` },
                  )
                : null,
              h(
                'details',
                {},
                h('summary', {}, `Lead history (${plan.history.length})`),
                table(
                  [
                    { title: 'At', cell: (e) => fmtTime(e.at) },
                    { title: 'Event', cell: (e) => e.kind },
                    { title: 'Epoch', num: true, cell: (e) => e.epoch },
                    { title: 'Lead', cell: (e) => e.lead || '-' },
                    { title: 'Before', cell: (e) => e.previousLead || '-' },
                    { title: 'Reason', cell: (e) => e.reason || '-' },
                  ],
                  plan.history,
                  { label: `lead history of ${plan.plan}` },
                ),
              ),
              plan.escalations.length > 0
                ? table(
                    [
                      { title: '#', num: true, cell: (e) => e.id },
                      { title: 'Class', cell: (e) => e.class },
                      { title: 'Task', cell: (e) => e.task || '(plan)' },
                      { title: 'State', cell: (e) => stateWord(e.answeredAt ? 'answered' : 'open') },
                      { title: 'Text', cell: (e) => e.text },
                      { title: 'Answer', cell: (e) => e.answer || '-' },
                    ],
                    plan.escalations,
                    { label: `escalations of ${plan.plan}` },
                  )
                : null,
            ),
          ),
          h('h2', {}, 'Leases'),
          table(
            [
              { title: 'Pool', cell: (l) => l.poolLabel },
              { title: 'Holder', cell: (l) => l.holder },
              { title: 'Granted by', cell: (l) => l.owner },
              { title: 'Task', cell: (l) => l.task || '-' },
              { title: 'Expires', cell: (l) => fmtTime(l.expiresAt) },
            ],
            data.leases,
            { label: 'Leases', empty: 'no leases' },
          ),
          h('h2', {}, 'Agents'),
          table(
            [
              { title: 'Address', cell: (a) => a.address },
              { title: 'Reachable', cell: (a) => stateWord(a.reachable ? 'ok' : 'unknown') },
              { title: 'Why', cell: (a) => a.why },
              { title: 'Heartbeat', cell: (a) => fmtTime(a.heartbeatAt) },
            ],
            data.agents,
            { label: 'Agents', empty: 'no agents registered' },
          ),
          h('h2', {}, 'Notices'),
          table(
            [
              { title: 'At', cell: (n) => fmtTime(n.createdAt) },
              { title: 'Kind', cell: (n) => n.kind },
              { title: 'From', cell: (n) => n.from || '-' },
              { title: 'To', cell: (n) => n.to },
              { title: 'Text', cell: (n) => n.text },
            ],
            data.notices,
            { label: 'Notices', empty: 'no notices' },
          ),
        ],
      };
    },
  };

  function poolCard(pool, history) {
    const windows = pool.meter.windows;
    const bars = h(
      'div',
      { class: 'bars' },
      windows.map((w) => {
        const elapsed =
          w.kind === pool.pacingWindow
            ? pool.elapsedPct
            : w.kind === 'five_hour' && pool.fiveHour
              ? pool.fiveHour.elapsedPct
              : null;
        const label = `${w.kind}: ${fmtPct(w.usedPct)} used${elapsed === null ? '' : `, ${fmtPct(elapsed)} of the window elapsed`}`;
        return h(
          'div',
          { class: 'bar-row' },
          h('span', {}, w.kind.replace('_', '-')),
          h(
            'div',
            { class: 'bar', role: 'img', 'aria-label': label },
            h('div', { class: `used${w.usedPct >= 100 ? ' hot' : ''}`, style: null, 'data-pct': w.usedPct }),
            elapsed === null ? null : h('div', { class: 'elapsed', 'data-pct': elapsed }),
          ),
          h('span', {}, `${fmtPct(w.usedPct)} used · `, countdown(w.resetsAt)),
        );
      }),
    );
    const forecast = history && history.forecastPct !== null ? history.forecastPct : null;
    const card = h(
      'section',
      { class: 'card pool', 'aria-label': `pool ${pool.poolLabel}`, 'data-pool': pool.poolLabel },
      h(
        'header',
        {},
        h('h3', {}, pool.poolLabel),
        pool.states.map(stateWord),
        h('span', { class: 'muted' }, pool.connector),
      ),
      windows.length === 0 ? h('p', { class: 'muted' }, `no meter reading (${pool.meter.status})`) : bars,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Surplus'),
        h(
          'dd',
          {},
          fmtPts(pool.pace),
          pool.pace === null ? '' : pool.pace >= 0 ? ' (behind pace: quota to spend)' : ' (ahead of pace)',
        ),
        h('dt', {}, 'Forecast'),
        h(
          'dd',
          {},
          forecast === null ? '-' : `${fmtPct(forecast)} used at the ${pool.pacingWindow} reset at this rate`,
        ),
        h('dt', {}, 'In flight'),
        h('dd', {}, String(pool.inflight)),
        h('dt', {}, 'Meter'),
        h(
          'dd',
          {},
          `${pool.meter.status}${pool.meter.readAt ? ` · read ${fmtTime(pool.meter.readAt)}` : ''}${pool.meterError ? ` · ${pool.meterError}` : ''}`,
        ),
        pool.problem ? [h('dt', {}, 'Problem'), h('dd', {}, pool.problem)] : null,
      ),
    );
    // Widths are set through the CSSOM (the page's policy allows no inline style attributes).
    for (const el of card.querySelectorAll('[data-pct]')) {
      const pct = Math.max(0, Math.min(100, Number(el.dataset.pct)));
      if (el.classList.contains('elapsed')) el.style.left = `${pct}%`;
      else el.style.width = `${pct}%`;
    }
    let chart = null;
    if (history && history.windowStart !== null && history.resetsAt !== null && typeof uPlot === 'function') {
      const target = h('div', {
        class: 'chart',
        role: 'img',
        'aria-label': `${pool.poolLabel}: used % of the ${history.window} window over time, with the pace line and the forecast`,
      });
      card.append(target);
      chart = () => drawChart(target, history);
    }
    return { el: card, chart };
  }

  function drawChart(target, history) {
    const start = history.windowStart / 1000;
    const end = history.resetsAt / 1000;
    const points = new Map();
    const put = (x, key, value) => {
      if (!points.has(x)) points.set(x, { used: null, forecast: null });
      points.get(x)[key] = value;
    };
    put(start, 'used', null);
    put(end, 'used', null);
    for (const r of history.readings) put(r.at / 1000, 'used', r.usedPct);
    const last = history.readings[history.readings.length - 1];
    if (history.forecastPct !== null && last) {
      put(last.at / 1000, 'forecast', last.usedPct);
      put(end, 'forecast', history.forecastPct);
    }
    const xs = [...points.keys()].sort((a, b) => a - b);
    const pace = xs.map((x) => Math.round(((x - start) / (end - start)) * 1000) / 10);
    const data = [xs, xs.map((x) => points.get(x).used), pace, xs.map((x) => points.get(x).forecast)];
    const width = Math.max(300, target.clientWidth || 380);
    const chart = new uPlot(
      {
        width,
        height: 170,
        scales: {
          x: { time: true, range: [start, end] },
          y: { range: [0, Math.max(100, Math.ceil((history.forecastPct || 0) / 10) * 10)] },
        },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => `${t}%`) }],
        series: [
          { label: 'time', value: (_u, v) => (v === null ? '-' : fmtTime(v * 1000)) },
          { label: 'used', stroke: '#1f5fa8', width: 2, spanGaps: true, points: { show: true, size: 4 } },
          { label: 'pace', stroke: '#6b6b6b', width: 1, dash: [4, 4], points: { show: false } },
          {
            label: 'forecast',
            stroke: '#9a6700',
            width: 1.5,
            dash: [2, 3],
            spanGaps: true,
            points: { show: false },
          },
        ],
      },
      data,
      target,
    );
    charts.push(chart);
  }

  function whyResult(d) {
    const head = d.ok ? `OK [${d.poolLabel}] ${d.reason}` : `NO POOL ${d.reason}`;
    return h(
      'section',
      { id: 'why-result', 'aria-live': 'polite' },
      h('p', { class: 'decision' }, stateWord(d.ok ? 'ok' : d.kind), ' ', head),
      d.forecast ? h('p', { class: 'muted' }, d.forecast) : null,
      d.backAt ? h('p', {}, `back at ${fmtTime(d.backAt)}`) : null,
      h('h2', {}, 'Candidates, in preference order'),
      table(
        [
          { title: '#', num: true, cell: (c) => d.candidates.indexOf(c) + 1 },
          { title: 'Pool', cell: (c) => c.poolLabel },
          { title: 'Model', cell: (c) => (c.model || 'default') + (c.free ? ' (free)' : '') },
          { title: 'Surplus', num: true, cell: (c) => fmtPts(c.pace) },
          { title: 'Effective', num: true, cell: (c) => fmtPts(c.effectiveSurplus) },
          { title: 'In flight', num: true, cell: (c) => `${c.inflight} (−${c.inflightCharge})` },
          { title: '5-hour', num: true, cell: (c) => fmtPct(c.fiveHourUsedPct) },
          { title: 'Forecast', num: true, cell: (c) => fmtPct(c.forecastPacingPct) },
          { title: 'Resets', cell: (c) => (c.pacingResetsAt ? countdown(c.pacingResetsAt) : '-') },
          {
            title: 'Marks',
            cell: (c) =>
              [
                c.assigned && 'assigned',
                c.expiringSoon && 'expiring soon',
                c.urgent && 'urgent',
                c.nearFiveHourLimit && 'near 5h limit',
                c.draining && 'draining',
              ]
                .filter(Boolean)
                .join(', ') || '-',
          },
        ],
        d.candidates,
        { label: 'Candidates', empty: 'no candidate' },
      ),
      h('h2', {}, 'Left out'),
      table(
        [
          { title: 'Pool', cell: (r) => r.poolLabel },
          { title: 'Kind', cell: (r) => stateWord(r.kind) },
          { title: 'Reason', cell: (r) => r.reason },
          { title: 'Back at', cell: (r) => fmtTime(r.backAt) },
        ],
        d.rejected,
        { label: 'Pools left out', empty: 'none' },
      ),
    );
  }

  function stepBox(runId, step, times, locked, act) {
    const restart = h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        'data-restart': step.id,
        disabled: locked,
        onclick: (e) =>
          act(e.currentTarget, `/api/workflows/${encodeURIComponent(runId)}/restart`, { step: step.id }),
      },
      `Restart ${step.id}`,
    );
    const took = times?.startedAt ? fmtDuration((times.endedAt || serverNow()) - times.startedAt) : '-';
    return h(
      'div',
      { class: `step ${step.status}`, 'data-step': step.id, 'aria-label': `step ${step.id}: ${step.status}` },
      h('div', {}, mark(step.status), ' ', h('strong', {}, step.id), ' ', stateWord(step.status)),
      h('div', { class: 'muted' }, [step.poolLabel, took, step.kind, step.why].filter(Boolean).join(' · ')),
      step.items
        ? h(
            'ul',
            { 'aria-label': `items of ${step.id}` },
            step.items.map((item) => {
              const t = times?.items[String(item.slot)];
              const itemTook = t?.startedAt ? fmtDuration((t.endedAt || serverNow()) - t.startedAt) : null;
              return h(
                'li',
                { 'data-item': item.label, 'data-status': item.status },
                mark(item.status),
                h('span', {}, item.label),
                stateWord(item.status),
                h(
                  'span',
                  { class: 'muted' },
                  [item.poolLabel, itemTook, item.why].filter(Boolean).join(' · '),
                ),
              );
            }),
          )
        : null,
      h('div', {}, restart),
    );
  }

  // ---- routing and live updates --------------------------------------------------------------
  let rendering = 0;
  async function render(fromLive) {
    const hash = location.hash || '#/pools';
    const [path, query] = hash.slice(1).split('?');
    const parts = path.split('/').filter(Boolean);
    const name = parts[0] || 'pools';
    const params = new URLSearchParams(query || '');
    const page = parts.length > 1 ? { runs: 'run', workflows: 'workflow' }[name] : name;
    for (const a of document.querySelectorAll('nav a')) {
      if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    const ticket = ++rendering;
    const focusedId = document.activeElement?.id;
    try {
      if (!pages[page]) throw new Error(`no page ${hash}`);
      const result = await pages[page](params, parts[1] && decodeURIComponent(parts[1]));
      if (ticket !== rendering) return;
      destroyCharts();
      main.replaceChildren(...result.content.flat(3).filter(Boolean));
      if (result.after) result.after();
    } catch (error) {
      if (ticket !== rendering) return;
      destroyCharts();
      main.replaceChildren(h('h1', {}, 'Error'), h('p', { class: 'error', role: 'alert' }, error.message));
    }
    main.setAttribute('aria-busy', 'false');
    main.dataset.rendered = String(ticket);
    main.dataset.page = page;
    if (fromLive && focusedId) document.getElementById(focusedId)?.focus();
    else if (!fromLive) main.focus({ preventScroll: true });
  }

  const TOPICS = {
    pools: ['pools'],
    why: ['pools'],
    runs: ['runs'],
    run: ['runs'],
    workflows: ['workflows'],
    workflow: ['workflows'],
    swarm: ['swarm', 'pools'],
  };
  // The first page is drawn once the event stream is ready (the server has taken the versions it
  // compares with), so no change falls between the first fetch and the first check; a reconnect
  // draws the page again. Without a stream within 2 s the page is drawn anyway.
  let drawn = false;
  const firstDraw = () => {
    if (drawn) return false;
    drawn = true;
    render(false);
    return true;
  };
  setTimeout(firstDraw, 2000);
  function connect() {
    const events = new EventSource('/api/events');
    events.addEventListener('ready', () => {
      liveBadge.textContent = 'live';
      liveBadge.className = 'live on';
      if (!firstDraw()) render(true);
    });
    events.addEventListener('change', (event) => {
      const { topics } = JSON.parse(event.data);
      const page = main.dataset.page || 'pools';
      if ((TOPICS[page] || []).some((t) => topics.includes(t))) render(true);
    });
    events.addEventListener('error', () => {
      liveBadge.textContent = 'reconnecting';
      liveBadge.className = 'live off';
    });
  }

  window.addEventListener('hashchange', () => render(false));
  connect();
})();
