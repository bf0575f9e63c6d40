import { BarChart } from '@mui/x-charts/BarChart';

/** Sign-ins per day as a bar chart (loaded lazily: @mui/x-charts stays out of the other pages' bundles). */
export function SignInsChart({ days, label }: { days: { day: string; count: number }[]; label: string }) {
  return (
    <BarChart
      height={260}
      xAxis={[{ scaleType: 'band', data: days.map((d) => d.day.slice(5)) }]}
      series={[{ data: days.map((d) => d.count), label, color: '#1976d2' }]}
      margin={{ left: 8, right: 8, top: 8, bottom: 8 }}
    />
  );
}
