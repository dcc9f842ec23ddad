/// The MOE revised Mandarin dictionary (重編國語辭典修訂本). Implementation in progress.
public enum MOE {}
