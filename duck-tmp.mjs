import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
const q = async (s) => { try { const r = await c.runAndReadAll(s); console.log(JSON.stringify(r.getRowObjectsJson())); } catch (e) { console.log('ERR', e.message); } };
const v = `'{"d":{"ps":{"b":0.2,"a":0.8,"c":"x"},"arr":[0.1,0.9,true]}}'::JSON`;
await q(`select json_keys(${v}, '$.d.ps') k, ${v} -> '$.d.ps.*' vals, json_type(${v}, '$.d.ps.*') ts, TRY_CAST(${v} -> '$.d.arr[*]' AS DOUBLE[]) arr, list_transform(TRY_CAST(${v} -> '$.d.arr[*]' AS VARCHAR[]), lambda x: TRY_CAST(x AS DOUBLE)) arr2, json_type(${v}, '$.d.arr[*]') ats`);
await q(`select list_transform([1,2], x -> x+1) a`);
await q(`select list_reduce([0.1::DOUBLE,0.2,0.7], lambda a, b: a + b) s, list_position([0.5::DOUBLE, 0.5], 0.5) p, ln(0.3::DOUBLE) l`);
await q(`select TRY_CAST('"x"'::JSON AS DOUBLE) a, TRY_CAST('true'::JSON AS DOUBLE) b, TRY_CAST('1e400'::JSON AS DOUBLE) c, json_type('{"a":[]}', '$.a[*]') d, json_type('{"a":5}', '$.a[*]') e`);
