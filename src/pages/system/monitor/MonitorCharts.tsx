import { LineChart } from '@mui/x-charts/LineChart';
import type { MonitorSnapshot } from './monitorTypes.ts';

/** CPU, memory, heap and event-loop delay over the readings kept (loaded lazily with @mui/x-charts). */
export function MonitorCharts({
  history,
  labels,
}: {
  history: MonitorSnapshot[];
  labels: { cpu: string; memory: string; heap: string; eventLoop: string };
}) {
  const x = history.map((s) => new Date(s.at));
  const percent = (used: number, total: number) => (total > 0 ? Math.round((used / total) * 1000) / 10 : 0);
  return (
    <>
      <LineChart
        height={220}
        xAxis={[{ data: x, scaleType: 'time' }]}
        yAxis={[{ min: 0, max: 100 }]}
        series={[
          {
            data: history.map((s) => Math.round(s.host.cpu_usage * 1000) / 10),
            label: labels.cpu,
            showMark: false,
          },
          {
            data: history.map((s) => percent(s.host.memory.used, s.host.memory.total)),
            label: labels.memory,
            showMark: false,
          },
        ]}
      />
      <LineChart
        height={220}
        xAxis={[{ data: x, scaleType: 'time' }]}
        series={[
          {
            data: history.map((s) => Math.round(s.process.heap_used / 1048576)),
            label: labels.heap,
            showMark: false,
          },
          { data: history.map((s) => s.process.event_loop_p99_ms), label: labels.eventLoop, showMark: false },
        ]}
      />
    </>
  );
}
