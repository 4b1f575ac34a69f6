//! `mpirun -np N tengen bench ...`: the bench on every rank at once, each with its own seed
//! ([`super::rank_seed`]), and the aggregate on rank 0.
//!
//! The ranks start together (a barrier), each runs the whole bench its flags describe, and
//! rank 0 gathers every rank's outcome: counts and CPU times summed, the signatures combined in
//! rank order (so the signature is the same for the same seed, playouts and number of ranks),
//! and the wall time of the slowest rank, so the rate is all playouts over the time the
//! slowest rank took.

use super::{rank_seed, receive_polling, world, Mpi, TAG_BENCH};
use crate::playout::batch::{BenchConfig, BenchStats};
use mpi::traits::*;
use std::time::Duration;

/// Words of one rank's outcome as gathered.
const WORDS: usize = 8;

fn to_words(st: &BenchStats) -> [u64; WORDS] {
    [
        st.playouts,
        st.moves,
        st.black_wins,
        st.score_sum.to_bits(),
        st.capped,
        st.signature,
        st.wall.as_nanos() as u64,
        st.cpu.as_nanos() as u64,
    ]
}

fn from_words(w: &[u64]) -> BenchStats {
    BenchStats {
        playouts: w[0],
        moves: w[1],
        black_wins: w[2],
        score_sum: f64::from_bits(w[3]),
        capped: w[4],
        signature: w[5],
        wall: Duration::from_nanos(w[6]),
        cpu: Duration::from_nanos(w[7]),
    }
}

/// Combines the ranks' outcomes, in rank order (see the module docs).
#[must_use]
pub fn aggregate(ranks: &[BenchStats]) -> BenchStats {
    let mut all = BenchStats {
        signature: 0,
        ..BenchStats::default()
    };
    for st in ranks {
        all.merge(st);
        all.wall = all.wall.max(st.wall);
    }
    all
}

/// Runs `cfg` on every rank (`run` does the bench with the rank's config); returns the
/// aggregate and the number of ranks on rank 0, `None` on the others.
pub fn run_on_ranks<E>(
    cfg: &BenchConfig,
    run: impl FnOnce(&BenchConfig) -> Result<BenchStats, E>,
) -> anyhow::Result<Option<(BenchStats, i32)>>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let mpi = Mpi::init()?;
    let (rank, size) = (mpi.rank(), mpi.size());
    let mine = BenchConfig {
        seed: rank_seed(cfg.seed, rank),
        ..*cfg
    };
    let w = world();
    w.barrier();
    let st = run(&mine)?;
    let words = to_words(&st);
    if rank != 0 {
        let bytes: Vec<u8> = words.iter().flat_map(|x| x.to_le_bytes()).collect();
        w.process_at_rank(0).send_with_tag(&bytes[..], TAG_BENCH);
        return Ok(None);
    }
    // Point to point rather than a gather: Open MPI's collectives spin while they wait, which
    // would slow the ranks still running on the same machine.
    let mut ranks = vec![st];
    for r in 1..size {
        let bytes = receive_polling(r, TAG_BENCH);
        let got: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("chunks of 8")))
            .collect();
        anyhow::ensure!(
            got.len() == WORDS,
            "rank {r} sent a malformed bench outcome"
        );
        ranks.push(from_words(&got));
    }
    Ok(Some((aggregate(&ranks), size)))
}
