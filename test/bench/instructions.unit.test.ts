// callgrind_annotate's listing read into the total and the optimizing compilers' share (bench/instructions.ts).
import test from 'ava';
import { callgrindTotals } from '../../bench/instructions.js';

const LISTING = `--------------------------------------------------------------------------------
Profile data file 'cg.out' (creator: callgrind-3.19.0)
Events recorded:  Ir
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,443,936,398 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
45,490,289 ( 3.15%)  ???:Builtins_LoadIC [/usr/bin/node]
38,845,431 ( 2.69%)  ???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]
 1,000,000 ( 0.07%)  ???:v8::internal::maglev::MaglevGraphBuilder::Build() [/usr/bin/node]
   500,000 ( 0.03%)  ???:v8::internal::OptimizedCompilationJob::ExecuteJob(v8::internal::RuntimeCallStats*, v8::internal::LocalIsolate*) [/usr/bin/node]
15,012,874 ( 1.04%)  ???:Builtins_StringAdd_CheckNone [/usr/bin/node]
 9,174,156 ( 0.71%)  ???:0x000000000d112e80 [???]
`;

test('the total is PROGRAM TOTALS; the compiler share sums TurboFan, Maglev and compile-job lines only', (t) => {
  const { total, compiler } = callgrindTotals(LISTING);
  t.is(total, 1_443_936_398);
  t.is(compiler, 38_845_431 + 1_000_000 + 500_000);
});

test('a listing without totals or compiler lines gives zeros', (t) => {
  t.deepEqual(callgrindTotals('Ir\n--------\n'), { total: 0, compiler: 0 });
  t.deepEqual(callgrindTotals('  2,000 ( 1.00%)  ???:Builtins_LoadIC [/usr/bin/node]\n'), { total: 0, compiler: 0 });
});
