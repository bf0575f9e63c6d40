import { BarChart } from '@mui/x-charts/BarChart';
import { useEffect, useRef, useState } from 'react';

/** Height of the chart, and of its skeleton and empty state. */
export const CHART_HEIGHT = 260;

/**
 * Sign-ins per day as a bar chart (loaded lazily: @mui/x-charts stays out of the other pages' bundles). It is
 * drawn only once its box has a width: a chart measured at width 0 computes negative bar widths (React's
 * "negative `<rect>` width" warning) and stays blank.
 */
export function SignInsChart({ days, label }: { days: { day: string; count: number }[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} style={{ width: '100%', height: CHART_HEIGHT }}>
      {width > 0 ? (
        <BarChart
          width={width}
          height={CHART_HEIGHT}
          xAxis={[{ scaleType: 'band', data: days.map((d) => d.day.slice(5)) }]}
          // Counts: whole-number ticks only (never 0.2, 0.4), from 0 even on a day without sign-ins.
          yAxis={[{ min: 0, tickMinStep: 1, valueFormatter: (value: number) => String(Math.round(value)) }]}
          series={[{ data: days.map((d) => d.count), label, color: '#1976d2' }]}
          // The top margin holds half the top tick's label: with 8 px the chart dropped that label (the highest
          // count on the axis was an unlabelled tick).
          margin={{ left: 8, right: 8, top: 16, bottom: 8 }}
        />
      ) : null}
    </div>
  );
}
