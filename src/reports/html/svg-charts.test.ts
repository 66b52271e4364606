import { describe, expect, it } from 'vitest';
import { calibrate } from '../../core/calibration.js';
import { renderBarChart, renderHistogramChart, renderReliabilityChart, renderScatterChart } from './svg-charts.js';

const count = (svg: string, mark: string) => svg.split(`data-mark="${mark}"`).length - 1;
const text = { id: 'c', title: 'A <chart>', desc: 'what it shows' };

describe('svg charts', () => {
  it('labels every chart with its title and description, escaped', () => {
    const svg = renderBarChart(text, [{ label: 'q', values: [0.5] }], { seriesNames: ['a'], valueLabel: 'accuracy' });
    expect(svg).toContain('role="img" aria-labelledby="c-t c-d"');
    expect(svg).toContain('<title id="c-t">A &lt;chart&gt;</title><desc id="c-d">what it shows</desc>');
  });

  it('places a reliability point at (mean confidence, accuracy) on the plot scale', () => {
    const { bins } = calibrate([
      { confidence: 0.55, hit: true },
      { confidence: 0.55, hit: false },
    ]);
    const svg = renderReliabilityChart(text, [{ name: 'm', bins }]);
    expect(count(svg, 'point')).toBe(1);
    expect(count(svg, 'gap')).toBe(1);
    // x runs 60..620 for 0..1 and y 300..14 for 0..1.
    const x = 60 + 0.55 * 560;
    const y = 300 - 0.5 * 286;
    expect(svg).toContain(`cx="${Math.round(x * 100) / 100}" cy="${y}"`);
  });

  it('draws one bar per value, none for absent ones, and one reference tick per item that has one', () => {
    const svg = renderBarChart(
      text,
      [
        { label: 'a', values: [0.2, null], reference: 0.5 },
        { label: 'b', values: [0.9, 0.4], reference: null },
      ],
      { seriesNames: ['x', 'y'], valueLabel: 'accuracy' },
    );
    expect(count(svg, 'bar')).toBe(3);
    expect(count(svg, 'reference')).toBe(1);
    expect(svg).toContain('>n/a<');
  });

  it('skips empty histogram bins and draws every marker', () => {
    const svg = renderHistogramChart(
      text,
      [
        { lower: 0, upper: 10 },
        { lower: 10, upper: 20 },
        { lower: 20, upper: 30 },
      ],
      [{ name: 'r', counts: [3, 0, 1] }],
      {
        xLabel: 'ms',
        format: String,
        markers: [
          { label: 'p50', value: 5 },
          { label: 'p95', value: 25 },
        ],
      },
    );
    expect(count(svg, 'bar')).toBe(2);
    expect(count(svg, 'marker')).toBe(2);
  });

  it('draws a scatter point per run and the front through the given points', () => {
    const svg = renderScatterChart(
      text,
      [
        { label: 'a', x: 1, y: 0.5 },
        { label: 'b', x: 2, y: 0.7 },
        { label: 'c', x: 3, y: 0.6 },
      ],
      [0, 1],
      { xLabel: 'ms', yLabel: 'accuracy', formatX: String, formatY: String },
    );
    expect(count(svg, 'point')).toBe(3);
    expect(count(svg, 'front')).toBe(1);
    expect(svg.match(/class="point [^"]*on-front/g)).toHaveLength(2);
  });
});
