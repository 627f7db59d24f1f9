import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

/**
 * The page's own time, ticking once a second while the component is mounted: what the clocks read
 * their countdown against (the service pushes a clock only when its events change).
 */
export function useNow(): Readonly<Ref<number>> {
  const now = ref(Date.now());
  let ticker: ReturnType<typeof setInterval> | undefined;
  onMounted(() => {
    ticker = setInterval(() => {
      now.value = Date.now();
    }, 1000);
  });
  onBeforeUnmount(() => clearInterval(ticker));
  return now;
}
