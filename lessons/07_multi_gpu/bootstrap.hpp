// Lesson 07: how separately started processes find each other, before NCCL can. A rank needs its
// number, the number of ranks, and rank 0's ncclUniqueId (128 bytes NCCL makes on rank 0; the
// other ranks pass the same bytes to ncclCommInitRank). Host code only, no CUDA and no NCCL, so it
// is tested on any machine.
//
// Who am I: a launcher says so in the environment (rank_from_environment):
//   torchrun            RANK, WORLD_SIZE, LOCAL_RANK
//   Open MPI's mpirun   OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK
//   MPICH's mpiexec     PMI_RANK, PMI_SIZE, MPI_LOCALRANKID
//   Slurm's srun        SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID
// The local rank (the rank's place among the ranks on its own host) picks its GPU.
//
// How do the others get rank 0's bytes (share_bytes):
//   file:PATH        rank 0 writes them to PATH (a new file, renamed into place whole); the others
//                    wait for it. PATH must be on a file system every rank sees.
//   tcp:HOST:PORT    rank 0 listens on PORT and hands the bytes to each rank that connects; the
//                    others connect to HOST:PORT (rank 0's host), as torchrun's MASTER_ADDR and
//                    MASTER_PORT say where its store is.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>

namespace lesson07 {

struct RankPlace {
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  std::string launcher;  // which variables said so: "torchrun", "Open MPI", "MPICH", "Slurm"
};

// A whole number from 0 to `most` in `text`, or -1.
inline int whole_number(const char* text, int most) {
  if (text == nullptr || *text == '\0') return -1;
  long v = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return -1;
    v = v * 10 + (*c - '0');
    if (v > most) return -1;
  }
  return static_cast<int>(v);
}

// The rank, size and local rank a launcher put in the environment (`get` reads a variable; the
// tests pass their own). Nothing when no launcher's variables are all there; `error` says what is
// wrong when some are but do not make sense (a rank past the size).
inline std::optional<RankPlace> rank_from_environment(
    const std::function<const char*(const char*)>& get, std::string* error) {
  struct Names {
    const char* launcher;
    const char* rank;
    const char* size;
    const char* local;
  };
  static const Names kLaunchers[] = {
      {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
      {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
      {"MPICH", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
      {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"}};
  for (const Names& n : kLaunchers) {
    const char* rank = get(n.rank);
    const char* size = get(n.size);
    if (rank == nullptr || size == nullptr) continue;
    RankPlace p;
    p.launcher = n.launcher;
    p.rank = whole_number(rank, 1 << 20);
    p.size = whole_number(size, 1 << 20);
    const char* local = get(n.local);
    p.local_rank = local != nullptr ? whole_number(local, 1 << 20) : p.rank;
    if (p.rank < 0 || p.size < 1 || p.local_rank < 0 || p.rank >= p.size) {
      *error = std::string(n.launcher) + "'s " + n.rank + "=" + rank + " and " + n.size + "=" +
               size + " do not name a rank (0 <= rank < size)";
      return std::nullopt;
    }
    return p;
  }
  return std::nullopt;
}

inline std::optional<RankPlace> rank_from_environment(std::string* error) {
  return rank_from_environment([](const char* name) { return std::getenv(name); }, error);
}

namespace detail {

inline bool write_all(int fd, const unsigned char* p, std::size_t size) {
  while (size > 0) {
    const ssize_t w = write(fd, p, size);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    size -= static_cast<std::size_t>(w);
  }
  return true;
}

// To a socket: a rank that hung up must not end rank 0 with SIGPIPE.
inline bool send_all(int fd, const unsigned char* p, std::size_t size) {
  while (size > 0) {
    const ssize_t w = send(fd, p, size, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    size -= static_cast<std::size_t>(w);
  }
  return true;
}

inline bool read_all(int fd, unsigned char* p, std::size_t size) {
  while (size > 0) {
    const ssize_t r = read(fd, p, size);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    size -= static_cast<std::size_t>(r);
  }
  return true;
}

using Clock = std::chrono::steady_clock;

inline bool share_by_file(const std::string& path, int rank, unsigned char* bytes, std::size_t size,
                          int timeout_s, std::string* error) {
  if (rank == 0) {
    if (access(path.c_str(), F_OK) == 0) {
      *error =
          "'" + path + "' exists: another run is using it, or one that failed left it (remove it)";
      return false;
    }
    const std::string part = path + ".part" + std::to_string(getpid());
    const int fd = open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
      *error = "cannot write '" + part + "': " + std::strerror(errno);
      return false;
    }
    const bool ok = write_all(fd, bytes, size) && fsync(fd) == 0;
    close(fd);
    // The rename puts the whole file in place at once: no rank reads half of it.
    if (!ok || rename(part.c_str(), path.c_str()) != 0) {
      unlink(part.c_str());
      *error = "cannot write '" + path + "': " + std::strerror(errno);
      return false;
    }
    return true;
  }
  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  while (true) {
    const int fd = open(path.c_str(), O_RDONLY);
    if (fd >= 0) {
      const bool ok = read_all(fd, bytes, size);
      close(fd);
      if (ok) return true;
    }
    if (Clock::now() > deadline) {
      *error = "rank 0 wrote no id to '" + path + "' within " + std::to_string(timeout_s) + " s";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// "host:port" into its two parts; false when it is not one.
inline bool split_address(const std::string& address, std::string* host, int* port) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  *host = address.substr(0, colon);
  *port = whole_number(address.c_str() + colon + 1, 65535);
  return *port > 0;
}

inline bool share_by_tcp(const std::string& address, int rank, int ranks, unsigned char* bytes,
                         std::size_t size, int timeout_s, std::string* error) {
  std::string host;
  int port = 0;
  if (!split_address(address, &host, &port)) {
    *error = "'" + address + "' is not HOST:PORT";
    return false;
  }
  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  if (rank == 0) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    const int yes = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(port));
    at.sin_addr.s_addr = htonl(INADDR_ANY);  // every interface: the others may come from any
    if (bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 ||
        listen(listener, ranks) != 0) {
      *error = "cannot listen on port " + std::to_string(port) + ": " + std::strerror(errno);
      close(listener);
      return false;
    }
    for (int served = 1; served < ranks; ++served) {
      pollfd p{listener, POLLIN, 0};
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {
        *error = "only " + std::to_string(served - 1) + " of " + std::to_string(ranks - 1) +
                 " ranks connected to port " + std::to_string(port) + " within " +
                 std::to_string(timeout_s) + " s";
        close(listener);
        return false;
      }
      const int peer = accept(listener, nullptr, nullptr);
      const bool ok = peer >= 0 && send_all(peer, bytes, size);
      if (peer >= 0) close(peer);
      if (!ok) --served;  // a connection that broke is not a rank served
    }
    close(listener);
    return true;
  }
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    *error = "cannot find host '" + host + "'";
    return false;
  }
  // Rank 0 may not be listening yet: try again until the deadline.
  while (true) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, found->ai_addr, found->ai_addrlen) == 0 && read_all(fd, bytes, size)) {
      close(fd);
      freeaddrinfo(found);
      return true;
    }
    close(fd);
    if (Clock::now() > deadline) {
      *error = "no id from rank 0 at " + address + " within " + std::to_string(timeout_s) + " s";
      freeaddrinfo(found);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace detail

// Whether `where` names a way to share the id: "file:PATH" or "tcp:HOST:PORT".
inline bool is_rendezvous(const std::string& where) {
  std::string host;
  int port = 0;
  if (where.rfind("file:", 0) == 0) return where.size() > 5;
  if (where.rfind("tcp:", 0) == 0) return detail::split_address(where.substr(4), &host, &port);
  return false;
}

// Rank 0's `size` bytes reach every one of `ranks` ranks through `where` ("file:PATH" or
// "tcp:HOST:PORT"): rank 0 gives them, the others get them into `bytes`. False, with `error`, when
// they did not within `timeout_s`.
inline bool share_bytes(const std::string& where, int rank, int ranks, void* bytes,
                        std::size_t size, int timeout_s, std::string* error) {
  auto* p = static_cast<unsigned char*>(bytes);
  if (where.rfind("file:", 0) == 0) {
    return detail::share_by_file(where.substr(5), rank, p, size, timeout_s, error);
  }
  if (where.rfind("tcp:", 0) == 0) {
    return detail::share_by_tcp(where.substr(4), rank, ranks, p, size, timeout_s, error);
  }
  *error = "'" + where + "' is neither file:PATH nor tcp:HOST:PORT";
  return false;
}

// Once every rank has the id (ncclCommInitRank returned), rank 0 removes the file, so the next run
// can use the same path.
inline void rendezvous_done(const std::string& where, int rank) {
  if (rank == 0 && where.rfind("file:", 0) == 0) unlink(where.substr(5).c_str());
}

}  // namespace lesson07
