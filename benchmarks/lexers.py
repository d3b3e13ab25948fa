"""Benchmark: lexing each language of reviewed code, Pygments' own loop against site_gen's.

Run: scripts/bench lexers [--rounds 5] [--chars 30000]

site_gen lexes the code of hunks and previews with Pygments' lexers, through each lexer
state's rules indexed by their first characters (site_gen/lexer_index.py): the same
tokens. For each language below, a sample of its code (repeated to `--chars` characters,
as the pages of one site lex in a process) is lexed both ways, in turns, `--rounds` times,
and the tokens compared. Printed: microseconds per character each way,
their ratio, and what that makes of the lines a model page lexes (both sides of its three
hunks: about 1,100 characters).

Python and Go run RegexLexer's loop as it is. The others change its tokens in a method of
their own, or run ExtendedRegexLexer's loop (Ruby, Terraform): Pygments' loop is what
site_gen ran for them before their method was run over the index. YAML reaches its loop
through `super()`, which is not indexed: it shows Pygments' own speed.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from pygments.lexer import Lexer  # noqa: E402
from pygments.lexers import get_lexer_by_name  # noqa: E402

from site_gen.lexer_index import RuleIndex, index_of, indexed_tokens  # noqa: E402

PAGE = 1_100  # characters a model page lexes: both sides of its three hunks, with context

SAMPLES = {
    "python": '''\
def finalize(carrier: dict[str, str], step: int, *, wait_fn=None) -> None:
    """Close the span once the checkpoint is written."""
    if wait_fn is not None:  # an async save hands over its wait
        wait_fn()
    with tracer.start_span("rl.checkpoint.finalize", context=carrier) as span:
        span.set_attribute("rl.checkpoint.step", step)
        return [name for name in os.listdir(path) if name.endswith(".pt")]
''',
    "go": '''\
func (s *Saver) Finalize(ctx context.Context, step int, wait func() error) error {
	if wait != nil { // an async save hands over its wait
		if err := wait(); err != nil {
			return fmt.Errorf("finalize step %d: %w", step, err)
		}
	}
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attribute.Int("rl.checkpoint.step", step))
	return nil
}
''',
    "c": '''\
#include <stdint.h>
/* Copy a checkpoint shard, returning the bytes written or -1. */
static int64_t copy_shard(FILE *out, const uint8_t *data, size_t size, uint32_t flags) {
    size_t written = 0;
    while (written < size) {
        size_t n = fwrite(data + written, 1, size - written, out);
        if (n == 0) { return -1; }
        written += n;
    }
    return (flags & 0x1u) ? (int64_t)written : 0;
}
''',
    "cpp": '''\
#include <vector>
namespace ckpt {
template <typename T>
std::vector<T> gather(const std::vector<std::vector<T>>& shards, std::size_t limit) {
    std::vector<T> out;
    out.reserve(limit);
    for (const auto& shard : shards) {  // keep the order of the ranks
        for (const T& value : shard) {
            if (out.size() == limit) { return out; }
            out.push_back(value);
        }
    }
    return out;
}
}  // namespace ckpt
''',
    "cuda": '''\
__global__ void scale_shard(float* out, const float* in, size_t n, float factor) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * factor;  // one element per thread
    }
}
void launch_scale(float* out, const float* in, size_t n, cudaStream_t stream) {
    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x);
    scale_shard<<<grid, block, 0, stream>>>(out, in, n, 0.5f);
}
''',
    "objective-c": '''\
@interface CheckpointWriter : NSObject
@property (nonatomic, copy) NSString *path;
- (BOOL)writeShard:(NSData *)data error:(NSError **)error;
@end
@implementation CheckpointWriter
- (BOOL)writeShard:(NSData *)data error:(NSError **)error {
    NSURL *url = [NSURL fileURLWithPath:self.path];
    return [data writeToURL:url options:NSDataWritingAtomic error:error];
}
@end
''',
    "php": '''\
<?php
namespace App\\Checkpoints;
final class Finalizer {
    public function __construct(private Tracer $tracer) {}
    public function finalize(array $carrier, int $step, ?callable $wait = null): void {
        if ($wait !== null) { $wait(); }  // an async save hands over its wait
        $span = $this->tracer->start("rl.checkpoint.finalize", $carrier);
        $span->set("rl.checkpoint.step", $step);
        printf("finalized %d in %s\\n", $step, implode(",", array_keys($carrier)));
    }
}
''',
    "swift": '''\
struct Finalizer {
    let tracer: Tracer
    func finalize(carrier: [String: String], step: Int, wait: (() throws -> Void)? = nil) rethrows {
        if let wait = wait { try wait() }  // an async save hands over its wait
        let span = tracer.startSpan("rl.checkpoint.finalize", carrier: carrier)
        span.setAttribute("rl.checkpoint.step", value: step)
        print("finalized \\(step)", NSString(string: "ok"))
    }
}
''',
    "lua": '''\
local Finalizer = {}
function Finalizer.finalize(carrier, step, wait)
  if wait ~= nil then wait() end -- an async save hands over its wait
  local span = tracer.start("rl.checkpoint.finalize", carrier)
  span:set("rl.checkpoint.step", step)
  for key, value in pairs(carrier) do
    print(string.format("%s=%s", key, tostring(value)), math.floor(step / 2))
  end
  return table.concat({"step", step}, " ")
end
''',
    "elixir": '''\
defmodule Checkpoint.Finalizer do
  @moduledoc "Close the span once the checkpoint is written."
  def finalize(carrier, step, wait \\\\ nil) when is_integer(step) do
    if wait, do: wait.()
    span = Tracer.start("rl.checkpoint.finalize", carrier)
    Tracer.set(span, "rl.checkpoint.step", step)
    Enum.map(carrier, fn {key, value} -> "#{key}=#{value}" end) |> Enum.join(",")
  end
end
''',
    "ruby": '''\
module Checkpoint
  class Finalizer
    def finalize(carrier, step, wait: nil)
      wait&.call # an async save hands over its wait
      span = tracer.start("rl.checkpoint.finalize", carrier: carrier)
      span.set_attribute("rl.checkpoint.step", step)
      carrier.map { |key, value| "#{key}=#{value}" }.join(",")
    rescue IOError => e
      logger.warn("finalize #{step}: #{e.message}")
    end
  end
end
''',
    "terraform": '''\
resource "google_storage_bucket" "checkpoints" {
  name          = "${var.project}-checkpoints"
  location      = var.region
  force_destroy = false
  lifecycle_rule {
    condition { age = 30 }
    action { type = "Delete" }
  }
  labels = { team = "rl", step = tostring(var.step) }
}
''',
    "yaml": '''\
checkpoint:
  async_save: true
  save_period: 10  # steps between saves
  paths:
    - "gs://bucket/checkpoints"
    - local: /tmp/ckpt
  telemetry: {span: rl.checkpoint.finalize, tags: [async_save, step]}
''',
}


def pygments_tokens(lexer: Lexer, text: str) -> list[object]:
    return list(lexer.get_tokens_unprocessed(text))


def site_gen_tokens(lexer: Lexer, text: str, index: RuleIndex | None) -> list[object]:
    if index is None:  # Pygments' loop, as site_gen runs it
        return pygments_tokens(lexer, text)
    return list(indexed_tokens(lexer, text, index))


def in_turns(rounds: int, *runs: Callable[[], object]) -> list[float]:
    """The shortest time of each of `runs`, run in turns `rounds` times, in seconds."""
    best = [float("inf")] * len(runs)
    for _ in range(rounds):
        for k, run in enumerate(runs):
            started = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chars", type=int, default=30_000)
    args = parser.parse_args()
    print(f"{'language':12} {'lexer':22} {'Pygments':>12} {'site_gen':>12} {'ratio':>7}"
          f" {'a page, ms':>12}")
    for alias, sample in SAMPLES.items():
        text = (sample * (args.chars // len(sample) + 1))[:args.chars]
        lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
        index = index_of(lexer)
        theirs = functools.partial(pygments_tokens, lexer, text)
        ours = functools.partial(site_gen_tokens, lexer, text, index)
        assert ours() == theirs(), alias  # the same tokens
        pygments, mine = in_turns(args.rounds, theirs, ours)
        per = [seconds / len(text) * 1e6 for seconds in (pygments, mine)]
        page = f"{per[0] * PAGE / 1000:.1f} -> {per[1] * PAGE / 1000:.1f}"
        print(f"{alias:12} {type(lexer).__name__:22} {per[0]:9.2f} µs {per[1]:9.2f} µs "
              f"{pygments / mine:7.2f} {page:>12}" + ("  (not indexed)" if index is None else ""))
    print("µs: per character, the best of the rounds; ratio: Pygments' time / site_gen's")


if __name__ == "__main__":
    main()
