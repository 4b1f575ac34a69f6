//! Cluster mode over MPI (the `cluster` feature): the bench and the search on several
//! processes, usually one per machine, started by `mpirun`.
//!
//! * [`bench`]: `mpirun -np N tengen bench ...`: every rank runs the bench with its own seed,
//!   rank 0 prints the aggregate.
//! * `mpirun -np N tengen gtp --cluster ...`: rank 0 speaks GTP ([`leader`]); the other ranks
//!   follow it ([`follower`]), searching the same position with their own seeds whenever rank 0
//!   searches, and the ranks merge the top of their trees at a fixed interval
//!   ([`crate::mcts::share`]).
//! * [`wire`]: the messages, as bytes.
//!
//! Every MPI call is made on the main thread (MPI is initialised with `MPI_THREAD_FUNNELED`):
//! the GTP session and the search's calling thread (where [`crate::mcts::TreeSync`] runs) are
//! the main thread; the search threads never call MPI.

pub mod bench;
pub mod follower;
pub mod leader;
pub mod wire;

use crate::mcts::share::ShareRule;
use crate::rng::splitmix64;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Source};
use std::time::Duration;

/// Message tags: a command from rank 0 to a follower ([`wire::Op`]).
const TAG_OP: i32 = 1;
/// Rank 0 asks for a merge round (one byte: 1 if the search stops after it).
const TAG_MERGE: i32 = 2;
/// A follower's deltas for a round ([`wire::encode_entries`]).
const TAG_DELTAS: i32 = 3;
/// Rank 0's totals for a round, or that the round is abandoned ([`wire::encode_totals`]).
const TAG_TOTALS: i32 = 4;

/// A rank's bench outcome, to rank 0 ([`bench`]).
const TAG_BENCH: i32 = 5;

/// Whether this process was started by an MPI launcher (`mpirun`, `mpiexec`, `srun`): Open
/// MPI, MPICH and PMIx set these variables in every process they start.
#[must_use]
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// MPI, initialised; finalised when dropped.
pub struct Mpi {
    _universe: Universe,
}

impl Mpi {
    /// Initialises MPI for calls from the main thread only.
    pub fn init() -> anyhow::Result<Mpi> {
        let (universe, level) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .ok_or_else(|| {
                anyhow::anyhow!("MPI could not be initialised (or was initialised already)")
            })?;
        if level < mpi::Threading::Funneled {
            anyhow::bail!("this MPI library cannot be called from a threaded program");
        }
        Ok(Mpi {
            _universe: universe,
        })
    }

    /// This process's rank.
    #[must_use]
    pub fn rank(&self) -> i32 {
        world().rank()
    }

    /// The number of ranks.
    #[must_use]
    pub fn size(&self) -> i32 {
        world().size()
    }
}

/// Ends every rank of the MPI job at once (`MPI_Abort`): for a rank that cannot go on, and for
/// rank 0 when a rank hangs.
pub fn abort() -> ! {
    world().abort(1)
}

/// How long a waiting rank sleeps between two looks for a message.
const POLL: Duration = Duration::from_micros(500);

/// Receives the next message with `tag` from rank `from`, looking every [`POLL`] and sleeping
/// in between. Open MPI's blocking receive spins on its core while it waits, which takes the
/// core from the search threads (of this rank, or of another rank on the same machine).
fn receive_polling(from: i32, tag: i32) -> Vec<u8> {
    use mpi::point_to_point::MatchedReceiveVec;
    loop {
        if let Some(probed) = world()
            .process_at_rank(from)
            .immediate_matched_probe_with_tag(tag)
        {
            return probed.matched_receive_vec::<u8>().0;
        }
        std::thread::sleep(POLL);
    }
}

/// The world communicator (a constant handle, made anew where needed so that nothing holding
/// it has to cross threads).
fn world() -> SimpleCommunicator {
    SimpleCommunicator::world()
}

/// The seed of rank `rank` in a run with seed `seed`: the seed itself on rank 0, a mix of both
/// elsewhere, so that one rank alone plays as `tengen` alone does.
#[must_use]
pub fn rank_seed(seed: u64, rank: i32) -> u64 {
    if rank == 0 {
        seed
    } else {
        splitmix64(seed ^ splitmix64(rank as u64))
    }
}

/// How the ranks of a cluster search merge their trees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MergeOptions {
    /// Time between merge rounds.
    pub interval: Duration,
    /// Which nodes are merged.
    pub rule: ShareRule,
    /// How long rank 0 waits for a rank's answer before it declares the cluster broken.
    pub timeout: Duration,
    /// Write each search's traffic to stderr (rank 0).
    pub verbose: bool,
}
