import { create } from 'zustand';

type SearchModalsState = {
  isCreateOpen: boolean;
  /** The search awaiting delete confirmation, null when no confirmation is open. */
  deletingSearchId: string | null;
  openCreateSearch: () => void;
  closeCreateSearch: () => void;
  askDeleteSearch: (searchId: string) => void;
  closeDeleteSearch: () => void;
};

/** Which My Searches modal is open (create, or delete confirmation for one search). */
export const useSearchModalsStore = create<SearchModalsState>((set) => ({
  isCreateOpen: false,
  deletingSearchId: null,
  openCreateSearch: () => set({ isCreateOpen: true }),
  closeCreateSearch: () => set({ isCreateOpen: false }),
  askDeleteSearch: (searchId) => set({ deletingSearchId: searchId }),
  closeDeleteSearch: () => set({ deletingSearchId: null }),
}));
