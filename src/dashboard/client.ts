// The dashboard in the browser: signs in with an API key (kept for the browser session), then draws a project's
// listening figures from the GraphQL analytics queries. Bundled with chart.js by src/dashboard/page.ts.
import { type ChartConfiguration, ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, BarController, BarElement, DoughnutController, ArcElement, CategoryScale, LinearScale, Filler, Legend, Tooltip);

const KEY = 'analytics-api-key';
const DEVICES = ['desktop', 'mobile_web', 'tablet', 'ios', 'android'] as const;
const DEVICE_NAMES: Record<(typeof DEVICES)[number], string> = { desktop: 'Desktop', mobile_web: 'Phone (web)', tablet: 'Tablet', ios: 'iOS', android: 'Android' };
const COLORS = ['#2563eb', '#16a34a', '#f59e0b', '#db2777', '#7c3aed'];

type ByDevice = Record<'total' | (typeof DEVICES)[number], number>;
interface Figures {
  days: { start: string; player_impressions: ByDevice; listens: ByDevice }[];
  totals: {
    player_impressions: ByDevice;
    listens: ByDevice;
    listen_rate: ByDevice;
    unique_listeners: ByDevice;
    listen_time: ByDevice;
    avg_listen_duration: ByDevice;
    listener_retention: { total: number[] };
  }[];
  top: { content: { id: string; title: string | null; source_id: string | null }; listens: ByDevice; player_impressions: ByDevice; avg_listen_duration: ByDevice }[];
}

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

async function graphql<T>(key: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Api-Key': key }, body: JSON.stringify({ query, variables }) });
  const answer = (await response.json().catch(() => null)) as { data?: T; errors?: { message: string; extensions?: { errors?: { location: string; message: string }[] } }[] } | null;
  if (!answer) throw new Error(`The service answered ${response.status}`);
  if (answer.errors?.length) {
    const [first] = answer.errors;
    const detail = first!.extensions?.errors?.map((error) => `${error.location}: ${error.message}`).join('; ');
    throw new Error(detail ? `${first!.message}: ${detail}` : first!.message);
  }
  return answer.data!;
}

const FIGURES = `query ($project: Int!, $daily: AnalyticsQuery, $whole: AnalyticsQuery) {
  days: projectAnalytics(project_id: $project, query: $daily) { start player_impressions { total } listens { total } }
  totals: projectAnalytics(project_id: $project, query: $whole) {
    player_impressions { total } listens { total desktop tablet mobile_web ios android } listen_rate { total }
    unique_listeners { total } listen_time { total } avg_listen_duration { total } listener_retention { total }
  }
  top: topContentAnalytics(project_id: $project, query: $whole, pagination: { limit: 10 }) {
    content { id title source_id } listens { total } player_impressions { total } avg_listen_duration { total }
  }
}`;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const number = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 1 });
const duration = (seconds: number) => (seconds >= 3600 ? `${number(seconds / 3600)} h` : seconds >= 60 ? `${number(seconds / 60)} min` : `${number(seconds)} s`);

const charts = new Map<string, { destroy(): void }>();
function draw(id: string, config: ChartConfiguration) {
  charts.get(id)?.destroy();
  charts.set(id, new Chart($<HTMLCanvasElement>(`#${id}`), { ...config, options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options } }));
}

function showError(message: string | null) {
  const box = $('#error');
  box.textContent = message ?? '';
  box.hidden = message === null;
}

function render(figures: Figures) {
  const totals = figures.totals[0]!;
  const cards: [string, string][] = [
    ['Listens', number(totals.listens.total)],
    ['Impressions', number(totals.player_impressions.total)],
    ['Listen rate', `${number(totals.listen_rate.total * 100)} %`],
    ['Unique listeners', number(totals.unique_listeners.total)],
    ['Listen time', duration(totals.listen_time.total)],
    ['Average completion', `${number(totals.avg_listen_duration.total)} %`],
  ];
  $('#cards').replaceChildren(
    ...cards.map(([label, value]) => {
      const card = document.createElement('div');
      card.className = 'card';
      card.innerHTML = '<span class="value"></span><span class="label"></span>';
      card.querySelector('.value')!.textContent = value;
      card.querySelector('.label')!.textContent = label;
      return card;
    }),
  );
  draw('over-time', {
    type: 'line',
    data: {
      labels: figures.days.map((day) => day.start.slice(0, 10)),
      datasets: [
        { label: 'Listens', data: figures.days.map((day) => day.listens.total), borderColor: COLORS[0], backgroundColor: 'rgba(37, 99, 235, 0.15)', fill: true, tension: 0.25 },
        { label: 'Impressions', data: figures.days.map((day) => day.player_impressions.total), borderColor: COLORS[2], tension: 0.25 },
      ],
    },
    options: { scales: { y: { beginAtZero: true } } },
  });
  draw('devices', {
    type: 'doughnut',
    data: { labels: DEVICES.map((device) => DEVICE_NAMES[device]), datasets: [{ data: DEVICES.map((device) => totals.listens[device]), backgroundColor: COLORS }] },
    options: { plugins: { legend: { position: 'bottom' } } },
  });
  draw('retention', {
    type: 'bar',
    data: { labels: totals.listener_retention.total.map((_, step) => `${(step + 1) * 10} %`), datasets: [{ label: 'Listens that reached it (%)', data: totals.listener_retention.total, backgroundColor: COLORS[1] }] },
    options: { scales: { y: { beginAtZero: true, max: 100 } } },
  });
  draw('top', {
    type: 'bar',
    data: { labels: figures.top.map((row) => row.content.title ?? row.content.id.slice(0, 8)), datasets: [{ label: 'Listens', data: figures.top.map((row) => row.listens.total), backgroundColor: COLORS[0] }] },
    options: { indexAxis: 'y', plugins: { legend: { display: false } } },
  });
  $('#top-rows').replaceChildren(
    ...figures.top.map((row) => {
      const tr = document.createElement('tr');
      for (const text of [row.content.title ?? row.content.id, number(row.listens.total), number(row.player_impressions.total), `${number(row.avg_listen_duration.total)} %`]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        tr.append(cell);
      }
      return tr;
    }),
  );
  $('#empty').hidden = totals.player_impressions.total > 0;
}

async function show(key: string) {
  const project = Number($<HTMLSelectElement>('#project').value);
  const from = $<HTMLInputElement>('#from').value;
  const to = $<HTMLInputElement>('#to').value;
  $('#dashboard').setAttribute('aria-busy', 'true');
  try {
    const figures = await graphql<Figures>(key, FIGURES, {
      project,
      daily: { aggregation: 'day', start_date: from, end_date: to },
      whole: { aggregation: 'all', start_date: from, end_date: to },
    });
    showError(null);
    render(figures);
  } catch (error) {
    showError(error instanceof Error ? error.message : String(error));
  } finally {
    $('#dashboard').setAttribute('aria-busy', 'false');
    $('#dashboard').dataset.ready = 'true';
  }
}

function setRange(days: number) {
  const to = new Date();
  $<HTMLInputElement>('#to').value = isoDay(to);
  $<HTMLInputElement>('#from').value = isoDay(new Date(to.getTime() - (days - 1) * 86_400_000));
}

async function signedIn(key: string) {
  const { projects } = await graphql<{ projects: { project: { id: number; name: string } }[] }>(key, '{ projects: projectsAnalytics(query: { aggregation: "all" }, pagination: { limit: 100 }) { project { id name } } }');
  $('#signin').hidden = true;
  $('#dashboard').hidden = false;
  $('#project').replaceChildren(
    ...projects
      .map(({ project }) => project)
      .sort((a, b) => a.id - b.id)
      .map((project) => new Option(`${project.name} (${project.id})`, String(project.id))),
  );
  if (!$<HTMLInputElement>('#from').value) setRange(30);
  await show(key);
}

function start() {
  const stored = sessionStorage.getItem(KEY);
  $('#signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $<HTMLInputElement>('#key').value.trim();
    signedIn(key)
      .then(() => sessionStorage.setItem(KEY, key))
      .catch((error: unknown) => showError(`Could not sign in: ${error instanceof Error ? error.message : String(error)}`));
  });
  $('#signout').addEventListener('click', () => {
    sessionStorage.removeItem(KEY);
    location.reload();
  });
  const current = () => sessionStorage.getItem(KEY) ?? '';
  $('#controls').addEventListener('submit', (event) => {
    event.preventDefault();
    void show(current());
  });
  $('#project').addEventListener('change', () => void show(current()));
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-days]')) {
    button.addEventListener('click', () => {
      setRange(Number(button.dataset.days));
      void show(current());
    });
  }
  if (stored) signedIn(stored).catch((error: unknown) => showError(error instanceof Error ? error.message : String(error)));
}

start();
