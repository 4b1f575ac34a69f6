//! Cluster mode over MPI (the `cluster` feature): `mpirun -np N tengen bench` and
//! `mpirun -np N tengen gtp --cluster`.

/// This process's place in the MPI job: its rank and the number of ranks.
pub fn world_size() -> i32 {
    use mpi::traits::Communicator;
    let universe = mpi::initialize().expect("MPI initialised twice");
    universe.world().size()
}
